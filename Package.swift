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
        .executable(name: "contrast", targets: ["contrast"]),
        .library(name: "ColorScience", targets: ["ColorScience"]),
        .library(name: "TokenSources", targets: ["TokenSources"]),
        .library(name: "PaletteAudit", targets: ["PaletteAudit"]),
        .plugin(name: "ContrastAuditPlugin", targets: ["ContrastAuditPlugin"]),
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

        // Reading: JSON, the one confined file system, every token source format (a folder
        // each), usage readers and the palette model. It never calls the audit.
        .target(
            name: "TokenSources",
            dependencies: ["ColorScience"],
            // The sourced table of iOS system colors (docs/data/apple-system-colors.json, through
            // a symlink in Resources/): the one record of those values, read at first use.
            resources: [.embedInCode("Resources/apple-system-colors.json")],
            swiftSettings: strictSettings
        ),

        // The audit over what was read: checks, baselines, the matrix, derive, init, requests and
        // the renderings.
        .target(
            name: "PaletteAudit",
            dependencies: ["TokenSources", "ColorScience"],
            swiftSettings: strictSettings
        ),

        // HTTP
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .target(
            name: "MicroHTTPD",
            dependencies: ["CMicroHTTPD"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PaletteService",
            dependencies: ["MicroHTTPD", "PaletteAudit", "TokenSources", "ColorScience"],
            // Served from memory, so `contrast serve` needs nothing beside the binary. The files
            // stay where users look for them (openapi.yaml, web/): Resources/ holds symlinks.
            resources: [
                .embedInCode("Resources/openapi.yaml"),
                .embedInCode("Resources/app.js"),
                .embedInCode("Resources/api.js"),
                .embedInCode("Resources/dom.js"),
                .embedInCode("Resources/document.js"),
                .embedInCode("Resources/editor.js"),
                .embedInCode("Resources/audit.js"),
                .embedInCode("Resources/app.css"),
            ],
            swiftSettings: strictSettings
        ),

        // CLI
        .executableTarget(
            name: "contrast",
            dependencies: [
                "ColorScience",
                "TokenSources",
                "PaletteAudit",
                "PaletteService",
                "MicroHTTPD",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),

        // SwiftPM command plugin: `swift package contrast-audit` audits the package with contrast
        .plugin(
            name: "ContrastAuditPlugin",
            capability: .command(
                intent: .custom(verb: "contrast-audit", description: "Audit the package's palettes, stylesheets and asset catalogs for WCAG contrast (contrast audit --format xcode)")
            ),
            dependencies: ["contrast"]
        ),

        // Benchmarks (make bench)
        .executableTarget(
            name: "contrast-bench",
            dependencies: ["ColorScience", "TokenSources", "PaletteAudit"],
            swiftSettings: strictSettings
        ),

        // Fuzzing (make fuzz): libFuzzer targets that replay their corpus when built normally
        .target(name: "FuzzSupport", dependencies: ["TokenSources", "PaletteAudit"], swiftSettings: strictSettings),
        .executableTarget(name: "fuzz-color", dependencies: ["ColorScience", "FuzzSupport"], swiftSettings: strictSettings),
        .executableTarget(name: "fuzz-palette", dependencies: ["TokenSources", "PaletteAudit", "FuzzSupport"], swiftSettings: strictSettings),
        // Structure-aware: each input builds a stylesheet or a token document, and a rendering
        // past 64× its input fails as a crash does (FuzzSupport's BoundedAudit).
        .executableTarget(name: "fuzz-stylesheet", dependencies: ["TokenSources", "PaletteAudit", "FuzzSupport"], swiftSettings: strictSettings),
        .executableTarget(name: "fuzz-tokens", dependencies: ["TokenSources", "PaletteAudit", "FuzzSupport"], swiftSettings: strictSettings),

        // Tests
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "ColorScienceTests",
            dependencies: ["ColorScience", "TestSupport"],
            resources: [.copy("Vectors")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PaletteAuditTests",
            dependencies: ["TokenSources", "PaletteAudit", "ColorScience", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PaletteServiceTests",
            dependencies: ["PaletteService", "MicroHTTPD", "TokenSources", "PaletteAudit", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ]
)
