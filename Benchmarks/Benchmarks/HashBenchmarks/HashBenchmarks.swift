import BenchCorpus
import BenchSuite
import Benchmark
import FeedBasics

// SHA-256 as Feedmill uses it: whole response bodies (to tell an unchanged 200 from a changed
// one, and to name recorded bodies) and short entry fields (ids, content hashes).
let benchmarks: @Sendable () -> Void = {
    SuiteConfiguration.apply()
    let body = GeneratedFeeds.newsRSS(items: 300)
    // Entry-sized strings: 200-byte slices of the body, as the content hash sees fields.
    let fields: [String] = stride(from: 0, to: body.count - 200, by: 4096).map {
        String(decoding: body[$0..<$0 + 200], as: UTF8.self)
    }
    Benchmark("hash-2MB-body") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(SHA256.hexDigest(body)) }
    }
    Benchmark("hash-\(fields.count)-fields-of-200B") { benchmark in
        for _ in benchmark.scaledIterations {
            for field in fields { blackHole(SHA256.hexDigest(field)) }
        }
    }
}
