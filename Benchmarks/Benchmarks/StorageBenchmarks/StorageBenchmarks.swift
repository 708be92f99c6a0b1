import BenchCorpus
import BenchSuite
import Benchmark
import FeedModel
import FeedStorage
import Foundation

// Storage as an update does it: a new feed's entries into a fresh feed database (create,
// migrate, insert, one transaction), the same entries again (every one compared and found
// unchanged: the warm run), and a feed list imported into the catalog. Each iteration works in
// a fresh directory; setting it up and removing it is outside the measurement.
let benchmarks: @Sendable () -> Void = {
    SuiteConfiguration.apply()
    let entries = (try? Workloads.parseAndNormalise(GeneratedFeeds.newsRSS(items: 300))) ?? []
    let outlines = (0..<1_000).map { CatalogOutline(url: "https://feeds\($0 % 50).example/\($0).xml", title: "Feed \($0)") }

    Benchmark("store-\(entries.count)-new-entries") { benchmark in
        for _ in benchmark.scaledIterations {
            let directory = try ScratchDirectory()
            benchmark.startMeasurement()
            try store(entries, at: directory.path + "/feed_1.sqlite")
            benchmark.stopMeasurement()
        }
    }
    Benchmark("store-\(entries.count)-unchanged-entries") { benchmark in
        for _ in benchmark.scaledIterations {
            let directory = try ScratchDirectory()
            try store(entries, at: directory.path + "/feed_1.sqlite")
            benchmark.startMeasurement()
            try store(entries, at: directory.path + "/feed_1.sqlite")
            benchmark.stopMeasurement()
        }
    }
    Benchmark("import-\(outlines.count)-feeds-into-a-catalog") { benchmark in
        for _ in benchmark.scaledIterations {
            let directory = try ScratchDirectory()
            benchmark.startMeasurement()
            blackHole(try Catalog(path: directory.path + "/" + Catalog.fileName).importOutlines(outlines, prune: false).added.count)
            benchmark.stopMeasurement()
        }
    }
}

/// Writes entries as `rss-update` does: one upsert, entry by entry, committed whole.
func store(_ entries: [Entry], at path: String) throws {
    let upsert = try FeedDatabase(path: path).beginUpsert(now: Workloads.now)
    for entry in entries { try upsert.add(entry) }
    blackHole(try upsert.commit())
}

/// A directory of its own for one iteration, removed when the value goes.
final class ScratchDirectory {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "feedmill-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
