// swift-tools-version:6.0
import PackageDescription

// The module graph is the architecture: ARCHITECTURE.md draws it, gives each module's one job
// and the path of one feed through an update. Scripts/check-architecture (run by CI) fails when
// the imports, this file and ARCHITECTURE.md's table disagree, or when a layering rule breaks
// (rss-publish links no fetcher and no parser; FeedStorage knows nothing of HTTP; ...).
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "Feedmill",
    platforms: [.macOS(.v15)],
    products: [
        // One executable for every command (git's and busybox's way): installed as `feedmill` with
        // rss-create, rss-update, rss-publish, rss-inspect, rss-feeds and rss-pull as links to it
        // (Scripts/command-links), each dispatching on the name it was called by.
        .executable(name: "feedmill", targets: ["feedmill"]),
        .library(name: "FeedBasics", targets: ["FeedBasics"]),
        .library(name: "FeedModel", targets: ["FeedModel"]),
        .library(name: "FeedParsing", targets: ["FeedParsing"]),
        .library(name: "FeedNormalization", targets: ["FeedNormalization"]),
        .library(name: "FeedFetching", targets: ["FeedFetching"]),
        .library(name: "FeedStorage", targets: ["FeedStorage"]),
        .library(name: "FeedPipeline", targets: ["FeedPipeline"]),
        .library(name: "FeedPublishing", targets: ["FeedPublishing"]),
        .library(name: "FeedObjectStorage", targets: ["FeedObjectStorage"]),
        .library(name: "FeedPublishingObjectStorage", targets: ["FeedPublishingObjectStorage"]),
        // For apps: syncs a publication into a local folder. Depends on no other Feedmill module.
        .library(name: "FeedmillClient", targets: ["FeedmillClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // rss-serve only (its own modules, a leaf of the graph).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Hummingbird's own: rss-serve closes a reader's connection that stopped taking writes.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
        // The system SQLite for FeedmillClient where Apple's SQLite3 module is not (Linux): its
        // own module, so the client library needs no GRDB.
        .systemLibrary(name: "CFeedmillSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "FeedBasics", dependencies: ["CCrypto"]),
        .target(name: "FeedModel", dependencies: ["FeedBasics"]),
        .target(name: "FeedDates", dependencies: ["FeedBasics"]),
        .target(name: "FeedParsing", dependencies: ["FeedModel", "FeedDates", "FeedBasics", "CLibXML2"]),
        .target(name: "FeedNormalization", dependencies: ["FeedModel", "FeedBasics", "CLibXML2"]),
        .target(name: "FeedFetching", dependencies: ["FeedModel", "FeedDates", "FeedBasics", "CCurl", "CZlib"]),
        // S3-compatible object storage through libcurl's SigV4 signer: what a publication target
        // for a bucket stands on. libcurl without the fetcher, so rss-publish may link it.
        .target(name: "FeedObjectStorage", dependencies: ["FeedBasics", "CCurl"]),
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
            dependencies: ["FeedBasics", "FeedModel", "FeedNormalization", "FeedStorage"]
        ),
        // Publishing into an S3-compatible bucket: ObjectStorageTarget, a PublicationTarget over
        // FeedObjectStorage's client; FeedPublishing itself stays free of libcurl.
        .target(
            name: "FeedPublishingObjectStorage",
            dependencies: ["FeedPublishing", "FeedObjectStorage", "FeedStorage", "FeedBasics"]
        ),
        .target(
            name: "FeedCommandSupport",
            dependencies: [
                "FeedBasics", "FeedStorage", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // What rss-publish adds: its configuration from the settings, its outcomes as exit codes.
        // Chooses the target from --out: the directory, or s3://bucket/prefix.
        .target(
            name: "FeedPublishCommandSupport",
            dependencies: ["FeedBasics", "FeedCommandSupport", "FeedPublishing", "FeedPublishingObjectStorage", "FeedStorage"]),
        .target(
            name: "FeedUpdateCommandSupport",
            dependencies: [
                "FeedCommandSupport", "FeedPipeline", "FeedFetching", "FeedStorage", "FeedBasics",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The commands, one module each, all in the one executable `feedmill`: each module keeps
        // its own dependencies (rss-publish's still links no fetcher and no parser).
        .target(
            name: "FeedmillCreate", dependencies: ["FeedUpdateCommandSupport", "FeedCommandSupport", "FeedPipeline", "FeedBasics", argumentParser], plugins: ["BuildStamp"]),
        .target(
            name: "FeedmillUpdate", dependencies: ["FeedUpdateCommandSupport", "FeedCommandSupport", "FeedPipeline", "FeedBasics", argumentParser], plugins: ["BuildStamp"]),
        // Publishing only: no fetcher, no parser; libcurl only through FeedObjectStorage.
        .target(
            name: "FeedmillPublish", dependencies: ["FeedPublishCommandSupport", "FeedCommandSupport", "FeedPublishing", "FeedStorage", "FeedBasics", argumentParser], plugins: ["BuildStamp"]),
        .target(
            name: "FeedmillInspect", dependencies: ["FeedUpdateCommandSupport", "FeedCommandSupport", "FeedPipeline", "FeedBasics", argumentParser], plugins: ["BuildStamp"]),
        .target(
            name: "FeedmillFeeds",
            dependencies: ["FeedUpdateCommandSupport", "FeedCommandSupport", "FeedPipeline", "FeedStorage", "FeedBasics", argumentParser],
            plugins: ["BuildStamp"]),
        // The reference client, for apps: Foundation and the system SQLite only, no other
        // Feedmill module, so an app on any platform can take it alone. On Linux, libcurl too
        // (its transport there: CurlTransport says why URLSession is not) and libcrypto (Ed25519).
        .target(
            name: "FeedmillClient",
            dependencies: [
                .target(name: "CFeedmillSQLite", condition: .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])),
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                // Ed25519 for signed publications (CryptoKit on Apple platforms).
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
            ]),
        // The client from a shell: no data directory, no settings, nothing of the server side.
        .target(name: "FeedmillPull", dependencies: ["FeedmillClient", argumentParser], plugins: ["BuildStamp"]),
        // The long-running server: the publication over HTTP and its changes as Server-Sent
        // Events. Reads the publication as a client does (FeedmillClient's decoders) and serves
        // it with the publisher's header rules; nothing depends on it.
        .target(
            name: "FeedServing",
            dependencies: [
                "FeedmillClient", "FeedPublishing", "FeedBasics", "FeedModel",
                // WebSub: pushed bodies go through the pipeline and the publisher; hubs are
                // asked under the fetcher's rules; subscriptions live in websub.sqlite.
                "FeedPipeline", "FeedStorage", "FeedFetching",
                // A publication in a bucket: its root watched by a conditional GET.
                "FeedObjectStorage", "FeedPublishingObjectStorage",
                // gzip of JSON answers.
                "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // An executable of its own, not a link to feedmill: only it links SwiftNIO.
        .executableTarget(
            name: "rss-serve",
            dependencies: [
                "FeedServing", "FeedPipeline", "FeedPublishing", "FeedFetching", "FeedCommandSupport", "FeedUpdateCommandSupport",
                "FeedPublishCommandSupport", "FeedPublishingObjectStorage", "FeedBasics", argumentParser,
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["BuildStamp"]),
        // The executable: dispatches on the name it was called by (FeedBasics' MultiCall).
        .executableTarget(
            name: "feedmill",
            dependencies: [
                "FeedBasics", "FeedCommandSupport",
                "FeedmillCreate", "FeedmillUpdate", "FeedmillPublish", "FeedmillInspect", "FeedmillFeeds", "FeedmillPull",
            ],
            plugins: ["BuildStamp"]),
        // Writes each executable's BuildStamp.swift (commit and commit date, for --version)
        // before every build, from git (Scripts/build-stamp); on the command modules and the
        // executable only, so a new commit recompiles those thin modules and no other library.
        .plugin(name: "BuildStamp", capability: .buildTool()),
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
        .testTarget(
            name: "FeedNormalizationTests", dependencies: ["FeedNormalization", "FeedParsing", "FeedModel", "FeedBasics", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "FeedDatesTests", dependencies: ["FeedDates", "TestSupport"]),
        // The client against real publications (written by FeedPublishing, served on 127.0.0.1);
        // GRDB computes the content digest a second, independent way.
        .testTarget(
            name: "FeedmillClientTests",
            dependencies: [
                "FeedmillClient", "FeedPublishing", "TestSupport", "PipelineTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        // Against a real SeaweedFS on 127.0.0.1 (TestSupport's S3TestServer).
        .testTarget(name: "FeedObjectStorageTests", dependencies: ["FeedObjectStorage", "FeedBasics", "TestSupport"]),
        // The S3 target against SeaweedFS, and rss-publish --out s3:// run as an operator would.
        .testTarget(
            name: "FeedPublishingObjectStorageTests",
            dependencies: [
                "FeedPublishingObjectStorage", "FeedObjectStorage", "FeedPublishing", "FeedStorage", "FeedBasics",
                "TestSupport", "PipelineTestSupport",
            ]),
        .testTarget(name: "FeedFetchingTests", dependencies: ["FeedFetching", "FeedBasics", "CCurl", "TestSupport"]),
        .testTarget(
            name: "FeedCommandSupportTests",
            dependencies: [
                "FeedCommandSupport", "FeedUpdateCommandSupport", "FeedPipeline", "FeedPublishing", "FeedStorage", "FeedFetching",
                "TestSupport",
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
            name: "FeedPublishingTests",
            dependencies: [
                "FeedPublishing", "FeedStorage", "FeedModel", "FeedBasics", "TestSupport", "PipelineTestSupport",
                // atom.xml is checked by reading it back as a feed.
                "FeedParsing",
                // The tests read and damage real SQLite files directly.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "FeedPipelineTests",
            dependencies: [
                "FeedPipeline", "FeedPublishing", "FeedStorage", "FeedFetching", "FeedModel", "FeedBasics", "TestSupport", "PipelineTestSupport",
                // Exit codes: a run report's is the command layer's to decide.
                "FeedUpdateCommandSupport",
                // The tests damage real SQLite files directly.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The built binaries and the command layer, run as an operator would: options, settings,
        // exit statuses, locks, signals, the contrib files. `swift test` builds every product
        // first, so the executables are beside the test bundle (TestSupport's Executable).
        .testTarget(
            name: "CommandTests",
            dependencies: [
                "FeedCommandSupport", "FeedUpdateCommandSupport", "FeedPipeline", "FeedPublishing", "FeedStorage", "FeedFetching",
                "FeedModel", "FeedBasics", "TestSupport", "PipelineTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // rss-serve through real processes (curl -N, rss-pull, rss-publish) and its parts.
        .testTarget(
            name: "FeedServingTests",
            dependencies: ["FeedServing", "FeedmillClient", "FeedBasics", "FeedPipeline", "FeedPublishing", "FeedStorage", "TestSupport", "PipelineTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift")],
            // The WebSub hub the tests start (python3), read by its path.
            exclude: ["Hub"]),
    ],
    swiftLanguageModes: [.v6]
)
