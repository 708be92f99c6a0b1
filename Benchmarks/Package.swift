// swift-tools-version:6.1
import PackageDescription

// Feedmill's benchmarks, kept out of the product package so that building and testing Feedmill
// never pays for them. Two kinds, both run by Scripts/bench/run:
// - Benchmarks/<Name>Benchmarks: in-process benchmarks on ordo-one's `benchmark` (wall clock,
//   throughput, malloc counts); their malloc-count thresholds live in Thresholds/ and
//   `Scripts/bench/run check` (CI) fails when a count grows past them.
// - Sources/feed-*-bench: small command-line harnesses that whole-command comparisons time
//   (`Scripts/bench/run compare-revisions REV` builds them in both trees).
// The trait list drops the framework's Swift 6.3 runtime interposer, which is not in the
// package mirror; malloc counts come from the malloc interposer.
let package = Package(
    name: "FeedmillBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Feedmill", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "BenchCorpus", dependencies: [feedmill("FeedModel"), feedmill("FeedParsing"), feedmill("FeedNormalization")]),
        .target(name: "BenchSuite", dependencies: [.product(name: "Benchmark", package: "benchmark")]),
        benchmark("ParseBenchmarks", [feedmill("FeedParsing"), feedmill("FeedNormalization")]),
        benchmark("StorageBenchmarks", [feedmill("FeedModel"), feedmill("FeedStorage")]),
        benchmark("HashBenchmarks", [feedmill("FeedBasics")]),
        .executableTarget(name: "feed-parse-bench", dependencies: ["BenchCorpus"]),
        .executableTarget(name: "feed-fetch-bench", dependencies: [feedmill("FeedFetching")]),
        .executableTarget(
            name: "feed-store-bench",
            dependencies: ["BenchCorpus", feedmill("FeedModel"), feedmill("FeedStorage")]
        ),
        .executableTarget(
            name: "feed-publish-bench", dependencies: [feedmill("FeedModel"), feedmill("FeedStorage"), feedmill("FeedPipeline"), feedmill("FeedPublishing")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

func feedmill(_ product: String) -> Target.Dependency { .product(name: product, package: "Feedmill") }

/// One suite of in-process benchmarks in Benchmarks/NAME, on the shared generated corpus.
func benchmark(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark"), "BenchCorpus", "BenchSuite"] + dependencies,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
