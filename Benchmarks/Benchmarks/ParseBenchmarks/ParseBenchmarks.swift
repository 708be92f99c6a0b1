import BenchCorpus
import BenchSuite
import Benchmark

// Parse alone, and parse + normalise, on three large generated feeds (RSS, Atom, JSON Feed).
// The bytes are in memory before the clock starts, as they are after a fetch. Throughput
// counts documents per second; MB/s is the document's size times it (docs/benchmarks.md).
let benchmarks: @Sendable () -> Void = {
    SuiteConfiguration.apply()
    let feeds: [(name: String, bytes: [UInt8])] = [
        ("RSS-2MB", GeneratedFeeds.newsRSS(items: 300)),
        ("Atom-4MB", GeneratedFeeds.fullTextAtom(entries: 25)),
        ("JSON-2MB", GeneratedFeeds.jsonFeed(items: 300)),
    ]
    for feed in feeds {
        Benchmark("parse-\(feed.name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try Workloads.parse(feed.bytes)) }
        }
        Benchmark("parse+normalise-\(feed.name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try Workloads.parseAndNormalise(feed.bytes)) }
        }
    }
}
