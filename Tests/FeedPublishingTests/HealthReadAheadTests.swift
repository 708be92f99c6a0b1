@testable import FeedPublishing
import FeedStorage
import PipelineTestSupport
import TestSupport
import Testing

/// The feeds' health read on a connection of its own beside the publication (issue 51): what
/// it gives is what the catalog's own reading gives, a cancelled reading gives nothing rather
/// than part of it, and a catalog that cannot be read gives nothing (the run then reads it
/// itself, and says why it cannot).
@Suite("Publication: the feeds' health read ahead")
struct HealthReadAheadTests {
    @Test func itGivesWhatTheCatalogsReadingGives() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 40, items: 1)
        let path = publish.harness.directory.url.path + "/all_feeds.sqlite"
        let expected = try Catalog(readingAt: path).healthSummary()
        #expect(expected.feeds.count == 40)
        #expect(HealthReadAhead(catalogAt: path).summaryIfRead() == expected)
        // Cancelled at once: nothing, or (when it ended first) all of it, never a part.
        for _ in 0..<20 {
            let ahead = HealthReadAhead(catalogAt: path)
            ahead.cancel()
            let read = ahead.summaryIfRead()
            #expect(read == nil || read == expected)
        }
        #expect(HealthReadAhead(catalogAt: publish.harness.directory.url.path + "/no-such.sqlite").summaryIfRead() == nil)
    }

    /// A run that uses it writes the same `index.html` as one that reads every feed's record.
    @Test func aPublicationThatFollowsTheLogShowsTheSameHealth() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 12, items: 1)
        _ = try publish.publish()
        try publish.write(3, [entry("later")])
        _ = try publish.publish()
        let full = try TemporaryDirectory()
        _ = try publish.publish(into: full.url.path, full: true)
        let page = { (directory: String) in try String(contentsOfFile: directory + "/index.html", encoding: .utf8) }
        #expect(try page(publish.outPath).contains("<strong>12</strong>"))
        #expect(try page(publish.outPath) == page(full.url.path))
    }
}
