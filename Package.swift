// swift-tools-version: 6.0
import PackageDescription

/// Every target gets the same language settings, so the whole package reads alike.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "contrast",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ColorScience", targets: ["ColorScience"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Color science: pure values and math, no Foundation, no I/O.
        .target(
            name: "ColorScience",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: strictSettings
        ),

        // Tests
        .testTarget(
            name: "ColorScienceTests",
            dependencies: ["ColorScience"],
            resources: [.copy("Vectors")],
            swiftSettings: strictSettings
        ),
    ]
)
