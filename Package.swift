// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way:
// FeedModel, FeedDates ← FeedParsing / FeedNormalization / FeedFetching ← FeedCommandSupport ← executables.
let package = Package(
    name: "Feedmill",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "rss-create", targets: ["rss-create"]),
        .executable(name: "rss-update", targets: ["rss-update"]),
        .executable(name: "rss-publish", targets: ["rss-publish"]),
        .executable(name: "rss-inspect", targets: ["rss-inspect"]),
        .library(name: "FeedParsing", targets: ["FeedParsing"]),
        .library(name: "FeedNormalization", targets: ["FeedNormalization"]),
        .library(name: "FeedFetching", targets: ["FeedFetching"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(name: "CMalloc"),
        .target(name: "FeedModel"),
        .target(name: "FeedDates"),
        .target(name: "FeedParsing", dependencies: ["FeedModel", "FeedDates", "CLibXML2"]),
        .target(name: "FeedNormalization", dependencies: ["FeedModel", "CLibXML2"]),
        .target(name: "FeedFetching", dependencies: ["FeedModel", "FeedDates", "CCurl"]),
        .target(
            name: "FeedStorage",
            dependencies: [
                "FeedModel", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "FeedPipeline",
            dependencies: [
                "FeedModel", "FeedParsing", "FeedNormalization", "FeedFetching", "FeedStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "FeedCommandSupport",
            dependencies: [
                "FeedModel", "FeedParsing", "FeedNormalization", "FeedFetching", "FeedStorage", "FeedPipeline", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "rss-create",
            dependencies: ["FeedCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "rss-update",
            dependencies: ["FeedCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "rss-publish",
            dependencies: ["FeedCommandSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "rss-inspect",
            dependencies: [
                "FeedCommandSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmark harness for Scripts/bench/parse; not installed.
        .executableTarget(
            name: "feed-parse-bench",
            dependencies: ["FeedModel", "FeedParsing", "FeedNormalization"]
        ),
        // Benchmark harness for Scripts/bench/fetch; not installed.
        .executableTarget(name: "feed-fetch-bench", dependencies: ["FeedFetching", "FeedModel"]),
        // Benchmark harness for Scripts/bench/storage; not installed.
        .executableTarget(
            name: "feed-store-bench",
            dependencies: ["FeedModel", "FeedParsing", "FeedNormalization", "FeedStorage"]
        ),
        // Benchmark harness for Scripts/bench/publish; not installed.
        .executableTarget(name: "feed-publish-bench", dependencies: ["FeedModel", "FeedStorage", "FeedPipeline"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "FeedParsingTests", dependencies: ["FeedParsing", "FeedModel"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FeedNormalizationTests", dependencies: ["FeedNormalization", "FeedParsing", "FeedModel"]),
        .testTarget(name: "FeedModelTests", dependencies: ["FeedModel"]),
        .testTarget(name: "FeedDatesTests", dependencies: ["FeedDates"]),
        .testTarget(name: "FeedFetchingTests", dependencies: ["FeedFetching", "TestSupport"]),
        .testTarget(
            name: "FeedCommandSupportTests",
            dependencies: ["FeedCommandSupport", "FeedPipeline", "FeedStorage", "FeedFetching", "TestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "FeedPipelineTests",
            dependencies: [
                "FeedPipeline", "FeedStorage", "FeedFetching", "FeedModel", "FeedParsing", "TestSupport",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
