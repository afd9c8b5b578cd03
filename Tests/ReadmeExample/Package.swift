// swift-tools-version:6.2
import PackageDescription

// An app's package: it depends on atoauth by path and names only the `ATOAuth` product. scripts/check-readme-example
// writes the README's library example into Sources/ReadmeExample/LibraryExample.swift (not committed) as the body of
// a function, then builds this package in atoauth's own build folder, so that only the example is compiled.
let package = Package(
    name: "ReadmeExample",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "atoauth", path: "../..")],
    targets: [
        .target(
            name: "ReadmeExample",
            dependencies: [.product(name: "ATOAuth", package: "atoauth")],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ]
)
