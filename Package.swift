// swift-tools-version:6.0
import PackageDescription

// The module graph is the architecture; dependencies point one way (→ reads "depends on"):
//
//   FeedBasics          → CCrypto (libcrypto)    ASCII bytes and trimming, markup escaping, civil dates, SHA-256, durable file writes
//   FeedModel           → FeedBasics                                   what a feed and an entry are
//   FeedDates           → FeedBasics                                   every date format feeds use
//   FeedParsing         → FeedModel, FeedDates, FeedBasics, CLibXML2    bytes → ParsedFeed (and OPML)
//   FeedNormalization   → FeedModel, FeedBasics, CLibXML2               ParsedFeed → entries fit to store
//   FeedFetching        → FeedModel, FeedDates, FeedBasics, CCurl, CZlib   HTTP with libcurl, bodies held compressed, bounded concurrency, recordings
//   FeedStorage         → FeedModel, FeedBasics, GRDB, CSQLiteSettings  all SQL: catalog, feed databases, snapshots
//   FeedPipeline        → the six above                                rss-create, rss-update, rss-inspect as library calls
//   FeedPublishing      → FeedPipeline, FeedStorage, FeedModel, FeedBasics, FeedNormalization   rss-publish
//   FeedCommandSupport  → FeedPipeline, FeedPublishing, FeedStorage, FeedFetching, ArgumentParser, Logging, TOMLKit, CMalloc
//                         settings, the shared command runner, logs, progress, summaries, metrics
//   rss-create, rss-update, rss-inspect, rss-publish, rss-feeds: one command each, parsing options and calling the above.
//
// No module above FeedStorage sees a GRDB type. Benchmark harnesses live in Benchmarks/ and
// the fuzz target in Fuzz/, packages of their own that depend on this one.
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "Feedmill",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "rss-create", targets: ["rss-create"]),
        .executable(name: "rss-update", targets: ["rss-update"]),
        .executable(name: "rss-publish", targets: ["rss-publish"]),
        .executable(name: "rss-inspect", targets: ["rss-inspect"]),
        .executable(name: "rss-feeds", targets: ["rss-feeds"]),
        .library(name: "FeedBasics", targets: ["FeedBasics"]),
        .library(name: "FeedModel", targets: ["FeedModel"]),
        .library(name: "FeedParsing", targets: ["FeedParsing"]),
        .library(name: "FeedNormalization", targets: ["FeedNormalization"]),
        .library(name: "FeedFetching", targets: ["FeedFetching"]),
        .library(name: "FeedStorage", targets: ["FeedStorage"]),
        .library(name: "FeedPipeline", targets: ["FeedPipeline"]),
        .library(name: "FeedPublishing", targets: ["FeedPublishing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // sqlite3_config, which is variadic: a C file, not a header, so that SQLite's declarations
        // come into Swift once (through GRDBSQLite).
        .target(name: "CSQLiteSettings"),
        .target(name: "FeedBasics", dependencies: ["CCrypto", "CLibXML2"]),
        .target(name: "FeedModel", dependencies: ["FeedBasics"]),
        .target(name: "FeedDates", dependencies: ["FeedBasics"]),
        .target(name: "FeedParsing", dependencies: ["FeedModel", "FeedDates", "FeedBasics", "CLibXML2"]),
        .target(name: "FeedNormalization", dependencies: ["FeedModel", "FeedBasics", "CLibXML2"]),
        .target(name: "FeedFetching", dependencies: ["FeedModel", "FeedDates", "FeedBasics", "CCurl", "CZlib"]),
        .target(
            name: "FeedStorage",
            dependencies: [
                "FeedModel", "FeedBasics", "CSQLiteSettings",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "FeedPipeline",
            dependencies: ["FeedBasics", "FeedModel", "FeedDates", "FeedParsing", "FeedNormalization", "FeedFetching", "FeedStorage"]
        ),
        .target(
            name: "FeedPublishing",
            dependencies: ["FeedBasics", "FeedModel", "FeedNormalization", "FeedStorage", "FeedPipeline"]
        ),
        .target(
            name: "FeedCommandSupport",
            dependencies: [
                "FeedBasics", "FeedFetching", "FeedStorage", "FeedPipeline", "FeedPublishing", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .executableTarget(name: "rss-create", dependencies: ["FeedCommandSupport", "FeedPipeline", "FeedBasics", argumentParser]),
        .executableTarget(name: "rss-update", dependencies: ["FeedCommandSupport", "FeedPipeline", "FeedBasics", argumentParser]),
        .executableTarget(
            name: "rss-publish", dependencies: ["FeedCommandSupport", "FeedPipeline", "FeedPublishing", "FeedBasics", argumentParser]),
        .executableTarget(name: "rss-inspect", dependencies: ["FeedCommandSupport", "FeedPipeline", "FeedBasics", argumentParser]),
        .executableTarget(
            name: "rss-feeds", dependencies: ["FeedCommandSupport", "FeedPipeline", "FeedStorage", "FeedBasics", argumentParser]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Shared by the tests of the storage, pipeline, publishing and command layers: a data
        // directory with a hand-moved clock, feed farms on 127.0.0.1, runs of the real binaries.
        .target(
            name: "PipelineTestSupport",
            dependencies: [
                "FeedPipeline", "FeedPublishing", "FeedStorage", "FeedFetching", "FeedModel", "FeedBasics", "TestSupport",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/PipelineTestSupport",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "FeedBasicsTests", dependencies: ["FeedBasics", "TestSupport"]),
        .testTarget(name: "FeedParsingTests", dependencies: ["FeedParsing", "FeedModel", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FeedNormalizationTests", dependencies: ["FeedNormalization", "FeedParsing", "FeedModel", "FeedBasics", "TestSupport"]),
        .testTarget(name: "FeedDatesTests", dependencies: ["FeedDates", "TestSupport"]),
        .testTarget(name: "FeedFetchingTests", dependencies: ["FeedFetching", "FeedBasics", "TestSupport"]),
        .testTarget(
            name: "FeedCommandSupportTests",
            dependencies: [
                "FeedCommandSupport", "FeedPipeline", "FeedStorage", "FeedFetching", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FeedStorageTests",
            dependencies: [
                "FeedStorage", "FeedModel", "TestSupport", "PipelineTestSupport",
                // The tests read and damage real SQLite files directly.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "FeedPipelineTests",
            dependencies: [
                "FeedPipeline", "FeedPublishing", "FeedStorage", "FeedFetching", "FeedModel", "FeedParsing", "FeedBasics",
                "TestSupport", "PipelineTestSupport",
                // The tests read and damage real SQLite files directly.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
