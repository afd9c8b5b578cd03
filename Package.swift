// swift-tools-version:6.2
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "atoauth",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Keystore", targets: ["Keystore"]),
        .library(name: "DPoPRequestExecutor", targets: ["DPoPRequestExecutor"]),
        .library(name: "OAuthSessionManager", targets: ["OAuthSessionManager"]),
        .library(name: "AccountManager", targets: ["AccountManager"]),
        .library(name: "ATClient", targets: ["ATClient"]),
        .library(name: "Sandbox", targets: ["Sandbox"]),
        .executable(name: "atoauth", targets: ["atoauth"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        .systemLibrary(name: "CResolv"),
        .target(
            name: "Keystore",
            dependencies: [
                "CSodium",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DPoPRequestExecutor",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "OAuthSessionManager",
            dependencies: [
                "Keystore", "DPoPRequestExecutor", "CResolv",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AccountManager",
            dependencies: ["Keystore", "DPoPRequestExecutor", "OAuthSessionManager"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ATClient",
            dependencies: ["DPoPRequestExecutor", "OAuthSessionManager", "AccountManager"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Sandbox",
            dependencies: [
                "DPoPRequestExecutor",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "atoauth",
            dependencies: [
                "Keystore", "DPoPRequestExecutor", "OAuthSessionManager", "AccountManager", "ATClient", "Sandbox",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "atoauth-bench",
            dependencies: [
                "Keystore", "DPoPRequestExecutor", "OAuthSessionManager", "AccountManager", "ATClient", "Sandbox",
                "CSodium",
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
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DPoPRequestExecutorTests",
            dependencies: [
                "DPoPRequestExecutor",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OAuthSessionManagerTests",
            dependencies: [
                "OAuthSessionManager", "DPoPRequestExecutor", "TestSupport", "Keystore", "Sandbox", "ATClient",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SandboxTests",
            dependencies: [
                "Sandbox", "DPoPRequestExecutor",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "atoauth", "Keystore", "DPoPRequestExecutor",
            ],
            exclude: ["approve_browser.py", "chromium_approve.py"],
            swiftSettings: strictSettings
        ),
    ]
)
