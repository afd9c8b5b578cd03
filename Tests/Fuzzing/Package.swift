// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets for the parsers that read the network or the disk; `scripts/fuzz` builds and runs them.
//
// A package of its own, so the main package carries no fuzzing flags: every target here is built with
// `-sanitize=fuzzer,address` in debug, where SwiftPM compiles the main package's modules with `-enable-testing`, so
// `@testable import` reaches the internal parsers themselves rather than copies of them.

let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// One libFuzzer executable per parser family, each with its corpus in `Corpus/<name>`.
func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: "atoauth") },
        swiftSettings: settings
    )
}

let package = Package(
    name: "atoauth-fuzzing",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "atoauth", path: "../..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer", .product(name: "HTTPTransport", package: "atoauth"),
                .product(name: "WireFormat", package: "atoauth"),
            ],
            swiftSettings: settings
        ),
        fuzzTarget("FuzzWWWAuthenticate", ["DPoPRequestExecutor", "HTTPTransport", "AccountManager"]),
        fuzzTarget("FuzzOAuthMetadata", ["OAuthSessionManager", "WireFormat"]),
        fuzzTarget("FuzzDIDDocument", ["ATProtoIdentity", "ATProtoSyntax", "HTTPTransport"]),
        fuzzTarget("FuzzHandleAnswer", ["ATProtoIdentity", "ATProtoSyntax", "HTTPTransport"]),
        fuzzTarget("FuzzIdentifiers", ["ATProtoSyntax"]),
        fuzzTarget("FuzzTokenAnswer", ["OAuthSessionManager", "WireFormat", "HTTPTransport"]),
        fuzzTarget("FuzzXRPCAnswer", ["ATClient", "AccountManager", "HTTPTransport", "WireFormat"]),
        fuzzTarget("FuzzCallbackURL", ["OAuthLoopbackListener", "OAuthSessionManager"]),
        fuzzTarget("FuzzFormBody", ["WireFormat"]),
        fuzzTarget("FuzzDPoPProof", ["DPoPRequestExecutor", "HTTPTransport", "Sandbox"]),
        fuzzTarget("FuzzScope", ["ATProtoPermissions", "ATProtoSyntax"]),
        fuzzTarget("FuzzKeystore", ["Keystore", "OAuthSessionManager", "AccountManager", "DPoPRequestExecutor"]),
        fuzzTarget("FuzzStoreURL", ["PostgresStore", "WireFormat"]),
        fuzzTarget("FuzzSandboxSettings", ["Sandbox"]),
    ]
)
