import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A large catalog snapshot is not written again for `last_update` alone more than once per
/// `catalogRefresh` (issue 51: 226 MB at a million feeds, at every publication); anything
/// else a reader sees in it is published at once, and nothing waits longer than the refresh.
@Suite("Publication: a large catalog waits for last_update alone")
struct CatalogDeferralTests {
    private func publish(_ publisher: PublishHarness) throws -> PublishReport {
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publisher.outPath
        configuration.catalogDeferralSize = 1  // every catalog counts as large here
        configuration.catalogRefresh = 3_600
        return try PublishRun(harness: publisher.harness, configuration: configuration).run()
    }

    private func lastUpdate(_ publisher: PublishHarness, _ id: Int64) throws -> String? {
        try sqlite(publisher.outPath + "/all_feeds.sqlite", "SELECT when_unix_time FROM last_update WHERE feedid = \(id)").first?.first ?? nil
    }

    private func move(_ publisher: PublishHarness, _ id: Int64, to when: Int64) throws {
        var feed = try publisher.harness.feed(id)
        feed.lastUpdate = when
        try publisher.harness.catalog.save(feed)
    }

    @Test func lastUpdateAloneWaitsForTheRefreshAndAnythingElseDoesNot() throws {
        let publisher = try PublishHarness()
        try publisher.seed(feeds: 5, items: 2)
        let harness = publisher.harness
        harness.now = 1_800_000_000
        _ = try publish(publisher)
        let first = try #require(try publisher.manifest().catalog)
        #expect(first.writtenAt == harness.now && first.behind == nil)

        // last_update alone: the catalog waits, marked behind; the pointer has the new value.
        harness.now += 60
        try move(publisher, 2, to: harness.now)
        _ = try publish(publisher)
        var record = try publisher.manifest()
        #expect(record.catalog?.version == first.version && record.catalog?.behind == true)
        #expect(try lastUpdate(publisher, 2) == "1700000000")
        #expect(try publisher.root().catalog?.version == first.version)
        // The catalog's page has the new value.
        let pages = try #require(try publisher.manifest().catalogPages?.pages)
        let page = try JSONDecoder().decode(
            CatalogPageDocument.self, from: Data(contentsOf: URL(fileURLWithPath: publisher.outPath + "/" + pages[0].file)))
        #expect(page.feeds.first { $0.feedID == 2 }?.lastUpdate == harness.now)
        let pointer = try #require(try PublicationReader.pointer(publisher.outPath, 2))
        #expect(pointer.entries.first?.lastUpdate == harness.now, "the pointer has it too")

        // A title changed: published at once, with the last_update that waited.
        harness.now += 60
        var feed = try harness.feed(3)
        feed.title = "Feed three"
        try harness.catalog.save(feed)
        _ = try publish(publisher)
        record = try publisher.manifest()
        #expect(record.catalog?.version == first.version + 1 && record.catalog?.behind == nil)
        #expect(try lastUpdate(publisher, 2) == "\(harness.now - 60)")
        #expect(try sqlite(publisher.outPath + "/all_feeds.sqlite", "SELECT title FROM about WHERE feedid = 3") == [["Feed three"]])

        // last_update alone again: waits; the refresh's time past, with nothing else changed,
        // it is written; then nothing more.
        harness.now += 60
        try move(publisher, 4, to: harness.now)
        let waited = try publish(publisher)
        #expect(try publisher.manifest().catalog?.behind == true, "\(waited)")
        harness.now += 3_600
        let refreshed = try publish(publisher)
        record = try publisher.manifest()
        #expect(record.catalog?.version == first.version + 2 && record.catalog?.behind == nil, "\(refreshed)")
        #expect(try lastUpdate(publisher, 4) == "\(harness.now - 3_600)")
        harness.now += 60
        #expect(try publish(publisher).unchanged)
    }
}
