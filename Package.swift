// swift-tools-version:6.2.3
import PackageDescription

// 6.2.3 is the first Swift with @nonexhaustive enums (SE-0487), which the errors' codes are.

// `scripts/fuzz` builds with ATOAUTH_FUZZ_BUILD=1: the package then also has the libFuzzer targets of Tests/Fuzzing,
// and its own modules are compiled with the fuzzer's coverage and AddressSanitizer, while the dependencies stay as
// the tests built them, so the fuzz build reuses them. A normal build has neither the targets nor the flags.
let fuzzing = Context.environment["ATOAUTH_FUZZ_BUILD"] == "1"
let fuzzFlags: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []

// Each file imports what it uses: MemberImportVisibility also holds members and extensions to their modules' imports.
let strictSettings: [SwiftSetting] =
    [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ] + fuzzFlags

// The testing kit binds raw sockets: on Linux the members of Glibc's `sockaddr_in` are attributed to SwiftNIO's C
// shim (CNIOLinux), a module no program should import, so member visibility is not enforced there.
let testingKitSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "atoauth",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        // The one import an app needs (Sources/ATOAuth/Exports.swift); the other libraries are its parts, for a
        // program that wants only one of them.
        .library(name: "ATOAuth", targets: ["ATOAuth"]),
        .library(name: "Failures", targets: ["Failures"]),
        .library(name: "ATProtoSyntax", targets: ["ATProtoSyntax"]),
        .library(name: "ATProtoPermissions", targets: ["ATProtoPermissions"]),
        .library(name: "WireFormat", targets: ["WireFormat"]),
        .library(name: "HTTPTransport", targets: ["HTTPTransport"]),
        .library(name: "Keystore", targets: ["Keystore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "DPoPRequestExecutor", targets: ["DPoPRequestExecutor"]),
        .library(name: "ATProtoIdentity", targets: ["ATProtoIdentity"]),
        .library(name: "OAuthMetadata", targets: ["OAuthMetadata"]),
        .library(name: "OAuthSessionManager", targets: ["OAuthSessionManager"]),
        .library(name: "OAuthLoopbackListener", targets: ["OAuthLoopbackListener"]),
        .library(name: "AccountManager", targets: ["AccountManager"]),
        .library(name: "ATClient", targets: ["ATClient"]),
        .library(name: "Gateway", targets: ["Gateway"]),
        .library(name: "SignInDoctor", targets: ["SignInDoctor"]),
        .library(name: "Sandbox", targets: ["Sandbox"]),
        .library(name: "ATOAuthTesting", targets: ["ATOAuthTesting"]),
        .executable(name: "atoauth", targets: ["atoauth"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // `swift package generate-documentation` (scripts/docs): CI builds the DocC catalogues with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libsodium backs the encrypted file store, which only Linux builds; Apple platforms use the Keychain.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        .systemLibrary(name: "CResolv"),
        .systemLibrary(name: "CProcessGuard"),
        .target(name: "Failures", swiftSettings: strictSettings),
        .target(name: "ATProtoSyntax", dependencies: ["Failures"], swiftSettings: strictSettings),
        .target(
            name: "ATProtoPermissions",
            dependencies: ["Failures", "ATProtoSyntax", "WireFormat"],
            swiftSettings: strictSettings
        ),
        .target(name: "WireFormat", dependencies: ["Failures"], swiftSettings: strictSettings),
        .target(
            name: "HTTPTransport",
            dependencies: [
                "Failures", "WireFormat",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Keystore",
            dependencies: [
                "Failures", "WireFormat", .target(name: "CSodium", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The PostgreSQL store is its own module, so that only programs that use it link postgres-nio.
        .target(
            name: "PostgresStore",
            dependencies: [
                "Failures", "Keystore", "WireFormat",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DPoPRequestExecutor",
            dependencies: [
                "Failures", "WireFormat", "HTTPTransport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ATProtoIdentity",
            dependencies: [
                "Failures", "ATProtoSyntax", "HTTPTransport", "WireFormat", "CResolv",
            ],
            swiftSettings: strictSettings
        ),
        // The documents both parties publish and the keys a client signs with: client metadata and its checker,
        // confidential client keys, authorization-server and protected-resource metadata with checks that return
        // findings.
        .target(
            name: "OAuthMetadata",
            dependencies: [
                "Failures", "ATProtoPermissions", "WireFormat", "HTTPTransport", "Keystore", "DPoPRequestExecutor",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "OAuthSessionManager",
            dependencies: [
                "Failures", "ATProtoSyntax", "WireFormat", "HTTPTransport", "Keystore", "DPoPRequestExecutor",
                "ATProtoIdentity",
                "ATProtoPermissions", "OAuthMetadata",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "OAuthLoopbackListener",
            dependencies: [
                "Failures", "WireFormat",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AccountManager",
            dependencies: [
                "Failures", "ATProtoSyntax", "ATProtoPermissions", "WireFormat", "HTTPTransport", "Keystore",
                "DPoPRequestExecutor", "ATProtoIdentity", "OAuthSessionManager", "OAuthMetadata",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ATClient",
            dependencies: [
                "Failures", "ATProtoSyntax", "ATProtoPermissions", "WireFormat", "HTTPTransport", "OAuthSessionManager",
                "OAuthMetadata",
                "AccountManager", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `import ATOAuth`: re-exports what an app names to sign in, keep accounts, call XRPC and handle failures.
        .target(
            name: "ATOAuth",
            dependencies: [
                "Failures", "ATProtoSyntax", "ATProtoPermissions", "HTTPTransport", "Keystore", "DPoPRequestExecutor",
                "ATProtoIdentity", "OAuthMetadata", "OAuthSessionManager", "OAuthLoopbackListener", "AccountManager",
                "ATClient",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `atoauth gateway`: the signed-in accounts served to local programs over plain HTTP (Hummingbird), with
        // Prometheus metrics and a graceful shutdown (ServiceLifecycle).
        .target(
            name: "Gateway",
            dependencies: [
                "Failures", "ATProtoSyntax", "ATProtoPermissions", "WireFormat", "HTTPTransport", "AccountManager",
                "ATClient", "OAuthSessionManager", "OAuthMetadata", "DPoPRequestExecutor", "CProcessGuard",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Explains why a sign-in fails: the chain a sign-in walks, checked step by step, without signing in.
        .target(
            name: "SignInDoctor",
            dependencies: [
                "Failures", "ATProtoSyntax", "ATProtoPermissions", "WireFormat", "HTTPTransport",
                "DPoPRequestExecutor", "ATProtoIdentity", "OAuthSessionManager", "OAuthMetadata",
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Sandbox",
            dependencies: [
                "Failures", "WireFormat", "HTTPTransport", "ATProtoSyntax", "ATProtoPermissions",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "atoauth",
            dependencies: [
                "Failures", "ATProtoSyntax", "ATProtoPermissions", "WireFormat", "HTTPTransport", "Keystore",
                "ATProtoIdentity", "OAuthMetadata", "OAuthSessionManager", "OAuthLoopbackListener", "AccountManager",
                "ATClient",
                "SignInDoctor", "Sandbox", "Gateway",
                "PostgresStore", "CProcessGuard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // "Sign in with Bluesky" for a web service: a confidential client served with Hummingbird.
        .executableTarget(
            name: "atoauth-web-example",
            dependencies: [
                "ATOAuth", "WireFormat", "PostgresStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Examples/WebSignIn",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "atoauth-bench",
            dependencies: [
                "ATProtoSyntax", "HTTPTransport", "Keystore", "DPoPRequestExecutor", "ATProtoIdentity",
                "OAuthSessionManager", "OAuthMetadata", "AccountManager", "ATClient", "Sandbox", "ATOAuthTesting",
                "CSodium", "PostgresStore", "Gateway", "ATProtoPermissions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/ATOAuthBench",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "KeystoreStressHelper",
            dependencies: ["Keystore"],
            path: "Tests/KeystoreStressHelper",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeystoreTests",
            dependencies: [
                "Keystore",
                "KeystoreStressHelper",
                "ATOAuthTesting",
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ATOAuthTesting",
            dependencies: [
                "Failures", "WireFormat", "HTTPTransport", "Keystore", "ATProtoIdentity", "OAuthSessionManager",
                "OAuthMetadata",
                "AccountManager", "Sandbox",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: testingKitSettings
        ),
        .testTarget(
            name: "FailuresTests",
            dependencies: [
                "Failures", "ATProtoSyntax", "ATProtoPermissions", "WireFormat", "HTTPTransport", "Keystore",
                "PostgresStore", "DPoPRequestExecutor", "ATProtoIdentity", "OAuthSessionManager", "OAuthMetadata",
                "OAuthLoopbackListener",
                "AccountManager", "ATClient", "Sandbox", "ATOAuthTesting", "Gateway",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ATProtoSyntaxTests",
            dependencies: ["ATProtoSyntax"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HTTPTransportTests",
            dependencies: ["HTTPTransport", "Failures", "ATOAuthTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ATProtoIdentityTests",
            dependencies: ["ATProtoIdentity", "ATProtoSyntax", "HTTPTransport", "Failures", "ATOAuthTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DPoPRequestExecutorTests",
            dependencies: [
                "DPoPRequestExecutor", "HTTPTransport", "WireFormat", "OAuthSessionManager", "OAuthMetadata", "Sandbox",
                "ATOAuthTesting",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OAuthMetadataTests",
            dependencies: [
                "OAuthMetadata", "Failures", "ATProtoSyntax", "ATProtoIdentity", "WireFormat", "HTTPTransport",
                "Keystore", "DPoPRequestExecutor", "ATOAuthTesting",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OAuthSessionManagerTests",
            dependencies: [
                "Failures",
                "ATProtoSyntax", "WireFormat", "HTTPTransport", "ATProtoIdentity", "OAuthSessionManager",
                "OAuthMetadata",
                "AccountManager", "ATOAuthTesting", "Keystore", "Sandbox", "ATProtoPermissions", "DPoPRequestExecutor",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OAuthLoopbackListenerTests",
            dependencies: ["OAuthLoopbackListener", "Failures", "ATOAuthTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SandboxTests",
            dependencies: [
                "Failures",
                "Sandbox", "DPoPRequestExecutor", "HTTPTransport", "WireFormat", "ATOAuthTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ATProtoPermissionsTests",
            dependencies: ["ATProtoPermissions", "ATProtoSyntax"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WireFormatTests",
            dependencies: ["WireFormat", "Failures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AccountManagerTests",
            dependencies: [
                "AccountManager", "ATClient", "ATOAuthTesting", "HTTPTransport", "Keystore", "OAuthSessionManager",
                "OAuthMetadata",
                "Sandbox", "DPoPRequestExecutor", "ATProtoSyntax", "Failures",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "PostgresStore", "Keystore", "ATOAuthTesting", "AccountManager", "ATClient", "OAuthSessionManager",
                "OAuthMetadata",
                "Sandbox", "HTTPTransport",
            ],
            exclude: ["Support/fake_postgres.py"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ATClientTests",
            dependencies: [
                "ATClient", "AccountManager", "ATOAuthTesting", "ATProtoSyntax", "ATProtoPermissions",
                "HTTPTransport", "OAuthSessionManager", "OAuthMetadata", "Failures", "Sandbox", "Keystore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `import ATOAuth` alone signs in and calls XRPC, and the README's library example stays on that one import
        // (scripts/check-readme-example builds the example itself, in a package that names only the product).
        .testTarget(
            name: "ATOAuthTests",
            dependencies: ["ATOAuth", "ATOAuthTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway", "ATOAuthTesting", "Sandbox", "AccountManager", "ATClient", "ATProtoSyntax", "HTTPTransport",
                "WireFormat",
                "Keystore", "OAuthSessionManager", "OAuthMetadata", "Failures", "DPoPRequestExecutor",
                "ATProtoPermissions",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SignInDoctorTests",
            dependencies: [
                "SignInDoctor", "ATProtoSyntax", "ATProtoIdentity", "HTTPTransport", "OAuthSessionManager",
                "OAuthMetadata",
                "ATOAuthTesting", "Keystore", "Failures",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "atoauth", "atoauth-web-example", "Keystore", "DPoPRequestExecutor", "HTTPTransport", "ATOAuthTesting",
                "PostgresStore", "ATProtoSyntax", "ATProtoIdentity", "AccountManager", "ATClient",
                "OAuthSessionManager", "OAuthMetadata",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: [
                "approve_browser.py", "gateway_client.py", "chromium_approve.py", "chromium_web_signin.py",
                "deny_browser.py",
                "forged_state_browser.py", "headless_chromium.py", "pty_run.py", "signup_browser.py",
            ],
            swiftSettings: strictSettings
        ),
    ]
)

// The libFuzzer targets (see Tests/Fuzzing/README.md), one executable per parser family, declared for fuzz builds only.
if fuzzing {
    let fuzzSettings: [SwiftSetting] = [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("FuzzWWWAuthenticate", ["DPoPRequestExecutor", "HTTPTransport", "AccountManager"]),
        ("FuzzOAuthMetadata", ["OAuthMetadata", "WireFormat", "HTTPTransport"]),
        ("FuzzDIDDocument", ["ATProtoIdentity", "ATProtoSyntax", "HTTPTransport"]),
        ("FuzzHandleAnswer", ["ATProtoIdentity", "ATProtoSyntax", "HTTPTransport"]),
        ("FuzzIdentifiers", ["ATProtoSyntax"]),
        (
            "FuzzTokenAnswer",
            [
                "OAuthSessionManager", "OAuthMetadata", "WireFormat", "HTTPTransport", "ATProtoPermissions",
                "ATProtoSyntax",
            ]
        ),
        ("FuzzXRPCAnswer", ["ATClient", "AccountManager", "HTTPTransport", "WireFormat"]),
        ("FuzzCallbackURL", ["OAuthLoopbackListener", "OAuthSessionManager"]),
        ("FuzzFormBody", ["WireFormat"]),
        ("FuzzDPoPProof", ["DPoPRequestExecutor", "HTTPTransport", "Sandbox"]),
        ("FuzzScope", ["ATProtoPermissions", "ATProtoSyntax"]),
        (
            "FuzzKeystore",
            [
                "Keystore", "OAuthSessionManager", "OAuthMetadata", "AccountManager", "DPoPRequestExecutor",
                "ATProtoSyntax",
            ]
        ),
        ("FuzzStoreURL", ["PostgresStore", "WireFormat"]),
        ("FuzzSandboxSettings", ["Sandbox"]),
    ]
    package.targets += [
        .target(name: "CLibFuzzer", path: "Tests/Fuzzing/Sources/CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer", "HTTPTransport", "WireFormat"],
            path: "Tests/Fuzzing/Sources/FuzzSupport",
            swiftSettings: fuzzSettings + fuzzFlags
        ),
    ]
    package.targets += fuzzTargets.map { name, dependencies in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport"] + dependencies,
            path: "Tests/Fuzzing/Sources/\(name)",
            swiftSettings: fuzzSettings + fuzzFlags,
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        )
    }
}
