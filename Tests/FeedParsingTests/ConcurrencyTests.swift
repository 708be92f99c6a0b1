import Dispatch
import FeedModel
import Foundation
import Testing

@testable import FeedParsing

@Suite("Parsing on many threads at once")
struct ConcurrencyTests {
    @Test func parallelParsesGiveTheSameResultAsOne() throws {
        let bytes = try fixture("planet-aggregator.atom.xml")
        let reference = try FeedParser.parse(bytes)
        let results = ResultsBox(count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            results.set(index, try? FeedParser.parse(bytes))
        }
        #expect(results.all.allSatisfy { $0 == reference })
    }
}

/// `@unchecked Sendable`: every access goes through `lock`.
private final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [ParsedFeed?]

    init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: ParsedFeed?) {
        lock.withLock { values[index] = value }
    }

    var all: [ParsedFeed?] { lock.withLock { values } }
}
