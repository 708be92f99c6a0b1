@testable import FeedmillClient
import Foundation
import PipelineTestSupport
import Testing
import TestSupport

/// The client's reading state on its own (issue 54): the merge rule, marks kept when a feed's
/// file is replaced, dropped when retention removes their item, kept while unsent or not yet
/// arrived. Real publications and SQLite files.
struct ReadingStateTests {
    /// A statement on a real file, as a delta (or the client's own push) would run it.
    static func write(_ path: String, _ sql: String) throws {
        let connection = try SQLiteConnection(path: path, readOnly: false)
        defer { connection.close() }
        try connection.execute(sql)
    }

    @Test func theMergeRuleIsTheLaterSettingAndTrueAtTheSameSecondInAnyOrder() {
        let values: [MarkedValue?] = [nil, MarkedValue(true, at: 5), MarkedValue(false, at: 5), MarkedValue(false, at: 9), MarkedValue(true, at: 1)]
        for a in values {
            for b in values {
                #expect(MarkedValue.merged(a, b) == MarkedValue.merged(b, a), "commutative: \(String(describing: a)) \(String(describing: b))")
                #expect(MarkedValue.merged(MarkedValue.merged(a, b), b) == MarkedValue.merged(a, b), "idempotent")
            }
        }
        #expect(MarkedValue.merged(MarkedValue(true, at: 5), MarkedValue(false, at: 5)) == MarkedValue(true, at: 5))
        #expect(MarkedValue.merged(MarkedValue(true, at: 5), MarkedValue(false, at: 6)) == MarkedValue(false, at: 6))
    }

    @Test func aLaterActionOnThisDeviceWinsLocallyWhateverItsClockSays() throws {
        let folder = try TemporaryDirectory()
        let state = ReadingState(folder: folder.url)
        try state.mark(feedID: 1, id: "a", read: true, at: Date(timeIntervalSince1970: 1000))
        try state.mark(feedID: 1, id: "a", read: false, at: Date(timeIntervalSince1970: 900))
        #expect(try state.mark(feedID: 1, id: "a")?.read == MarkedValue(false, at: 1000))
        #expect(try state.pendingCount() == 1)
        // A time no clock gives is clamped, not a trap.
        for odd in [Double.nan, -.infinity, .infinity, -5] {
            try state.mark(feedID: 2, id: "odd", starred: true, at: Date(timeIntervalSince1970: odd))
        }
        #expect(try state.mark(feedID: 2, id: "odd")?.starred?.value == true)
    }

    @Test func marksOutliveTheFileBeingReplacedAndGoWhenRetentionRemovesTheirItem() async throws {
        let fixture = try ClientFixture(feeds: 2)
        try fixture.publish()
        _ = try await fixture.sync()
        let items = try sqlite(fixture.path("feed_1.sqlite"), "SELECT id FROM items ORDER BY id").compactMap { $0.first ?? nil }
        #expect(items.count >= 2)
        let state = ReadingState(folder: fixture.folder)
        try state.mark(feedID: 1, id: items[0], read: true)
        try state.mark(feedID: 1, id: items[1], starred: true)
        try state.mark(feedID: 1, id: "not-here-yet", read: true)
        try state.mark(feedID: 2, id: "of-feed-2", read: true)
        #expect(try state.prune() == 0)

        // A new version of the feed (a delta replaces the file): the marks stay.
        try fixture.addEntries(1, ["f1-later"])
        try fixture.publish()
        let report = try await fixture.sync()
        #expect(!report.deltaDownloads.isEmpty || !report.fullDownloads.isEmpty)
        #expect(try state.marks(feedID: 1).map(\.id).sorted() == [items[0], items[1], "not-here-yet"].sorted())

        // Retention removed item 0 (as a delta does): its mark goes once it was sent; a mark
        // not yet sent, or of an item not yet arrived, stays.
        try Self.write(fixture.path("feed_1.sqlite"), "DELETE FROM items WHERE id = '\(items[0])' OR id = '\(items[1])'")
        #expect(try state.prune() == 0, "not sent yet: kept")
        let marksFile = fixture.path(".feedmill-reading-state.sqlite")
        try Self.write(marksFile, "UPDATE marks SET read_pending = 0, starred_pending = 0 WHERE id <> '\(items[1])'")
        #expect(try state.prune() == 1)
        #expect(try state.marks(feedID: 1).map(\.id).sorted() == [items[1], "not-here-yet"].sorted())
        // A feed whose file is gone: its marks that were seen go; feed 2's never were.
        #expect(try state.marks(feedID: 2).count == 1)
    }
}
