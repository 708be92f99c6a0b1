// swift-tools-version:6.0
import PackageDescription

// The benchmark harnesses behind Scripts/bench/*, kept out of the product package: each
// drives one library of Feedmill's on the benchmark corpus. Built only by those scripts
// (`swift build -c release --package-path Benchmarks`).
let package = Package(
    name: "FeedmillBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Feedmill", path: "..")],
    targets: [
        .executableTarget(name: "feed-parse-bench", dependencies: [feedmill("FeedModel"), feedmill("FeedParsing"), feedmill("FeedNormalization")]),
        .executableTarget(name: "feed-fetch-bench", dependencies: [feedmill("FeedFetching")]),
        .executableTarget(name: "feed-hash-bench", dependencies: [feedmill("FeedBasics")]),
        .executableTarget(
            name: "feed-store-bench",
            dependencies: [feedmill("FeedModel"), feedmill("FeedParsing"), feedmill("FeedNormalization"), feedmill("FeedStorage")]
        ),
        .executableTarget(
            name: "feed-publish-bench", dependencies: [feedmill("FeedModel"), feedmill("FeedStorage"), feedmill("FeedPipeline"), feedmill("FeedPublishing")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

func feedmill(_ product: String) -> Target.Dependency { .product(name: product, package: "Feedmill") }
