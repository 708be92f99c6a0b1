@testable import FeedPipeline
import Foundation
import PipelineTestSupport
import Testing

/// A deadline is a library value too (`PipelineConfiguration.deadline`, seconds as a `Double`):
/// the commands refuse one past 10 years, but no value a caller can set may trap.
@Suite("The run's deadline")
struct DeadlineTests {
    @Test(arguments: [Double(Int64.max), 9_223_372_036_854_775_807 * 1000, .greatestFiniteMagnitude, .infinity, -.infinity, -1e300, .nan])
    func anyNumberOfSecondsBecomesAnInstantWithoutATrap(seconds: Double) {
        let started = ContinuousClock.now
        let deadline = UpdateRun.deadline(seconds, after: started)
        if seconds > 0 {
            #expect(deadline > started + .seconds(315_360_000), "longer than any deadline the commands take")
        } else if seconds < 0 {
            #expect(deadline < started)
        } else {
            #expect(deadline == started, "NaN is no time at all")
        }
    }

    @Test func anOrdinaryDeadlineIsKeptToTheMillisecond() {
        let started = ContinuousClock.now
        #expect(UpdateRun.deadline(90.25, after: started) == started + .milliseconds(90_250))
    }

    @Test(arguments: [Double(Int64.max), .greatestFiniteMagnitude, .infinity])
    func aRunWithAHugeDeadlineUpdatesEveryFeed(seconds: Double) throws {
        let harness = try Harness()
        let feeds = try FeedServer()
        feeds.set("/a.xml", rss("A", items: [("a1", "One", nil, nil)]))
        feeds.set("/b.xml", rss("B", items: [("b1", "One", nil, nil)]))
        _ = try harness.add([feeds.url("/a.xml"), feeds.url("/b.xml")])
        var configuration = harness.configuration
        configuration.deadline = seconds
        let ran = try harness.update(configuration: configuration)
        #expect(ran.feeds.count == 2 && ran.report.notStarted.isEmpty && ran.report.stoppedBy == nil, "\(ran.report)")
    }
}
