import FeedModel
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `--keep-items N` on real feed databases: the items the feed lists now always stay, the
/// others fill up to N newest first, never more than max(N, listed now).
@Suite("Retention keeps exactly what it says")
struct RetentionRuleTests {
    private func entry(_ id: String, pubdate: Int64?) -> Entry {
        Entry(id: id, idSource: .native, permalink: nil, title: id, summary: "S", pubdate: pubdate, updated: nil, author: nil)
    }

    /// Issue 40's case: 5 items seen in one second, then 2 new ones in the same second with
    /// `--keep-items 3`. All seven tie on date and first sighting; ranked together by id, the
    /// two listed ones fell behind the old ones and 3 old ones stayed beside them: 5 in all.
    @Test func keepItems3OnAFeedNowListing2NewItemsAfter5OlderOnesSeenInTheSameSecondKeeps3() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        try database.upsert(["a1", "a2", "a3", "a4", "a5"].map { entry($0, pubdate: nil) }, now: 5_000)
        let summary = try database.upsert([entry("z1", pubdate: nil), entry("z2", pubdate: nil)], now: 5_000, retention: Retention(keepItems: 3))
        #expect(summary == UpsertSummary(inserted: 2, removed: 4))
        // The two listed, and of the others the first by id (all tie on both dates).
        #expect(try sqlite(database.path, "SELECT id FROM items ORDER BY id") == [["a1"], ["z1"], ["z2"]])
    }

    @Test func moreListedThanNKeepsExactlyTheListed() throws {
        let directory = try TemporaryDirectory()
        let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
        try database.upsert((1...3).map { entry("old\($0)", pubdate: 9_000 + Int64($0)) }, now: 5_000)
        let summary = try database.upsert((1...4).map { entry("new\($0)", pubdate: Int64($0)) }, now: 6_000, retention: Retention(keepItems: 2))
        #expect(summary.removed == 3, "even the newest unlisted one: the listed ones already fill N")
        #expect(try sqlite(database.path, "SELECT id FROM items ORDER BY id") == [["new1"], ["new2"], ["new3"], ["new4"]])
    }

    /// Random feeds over several runs: random listings of old and new items, dates drawn from
    /// a few values so that they tie often, runs in the same second and not, random N.
    @Test func randomFeedsKeepTheListedAndTheNewestOthersUpToN() throws {
        var random = SeededGenerator.announced()
        for feed in 0..<40 {
            let directory = try TemporaryDirectory()
            let database = try FeedDatabase(path: directory.url.path + "/feed_1.sqlite")
            var pubdates: [String: Int64?] = [:]
            var next = 0
            var now: Int64 = 10_000
            for run in 0..<6 {
                let context = "seed \(random.seed) feed \(feed) run \(run)"
                let before = try rows(database.path)
                var listing = before.keys.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                for _ in 0..<Int.random(in: 0...6, using: &random) {
                    let id = String(format: "i%03d", Int.random(in: 0...999, using: &random)) + "-\(next)"
                    next += 1
                    pubdates[id] = Bool.random(using: &random) ? nil : Int64.random(in: 1...4, using: &random) * 1_000
                    listing.append(id)
                }
                listing.shuffle(using: &random)
                if Bool.random(using: &random) { now += Int64.random(in: 1...3, using: &random) }
                let keep = Int.random(in: 1...8, using: &random)
                // Same id, same pubdate every run: only retention decides what stays.
                let entries = listing.map { entry($0, pubdate: pubdates[$0] ?? nil) }
                try database.upsert(entries, now: now, retention: Retention(keepItems: keep))

                let after = try rows(database.path)
                let listed = Set(listing)
                let total = Set(before.keys).union(listed).count
                #expect(listed.isSubset(of: Set(after.keys)), "\(context): every listed item stays")
                #expect(after.count == min(total, max(keep, listed.count)), "\(context): N \(keep), listed \(listed.count), total \(total), kept \(after.count)")
                // The others kept are the newest of the others, by pubdate, first sighting, then id.
                let others = before.filter { !listed.contains($0.key) }
                    .sorted { ($1.value.pubdate, $1.value.firstSeen, $0.key) < ($0.value.pubdate, $0.value.firstSeen, $1.key) }
                let keptOthers = Set(after.keys).subtracting(listed)
                #expect(keptOthers == Set(others.prefix(keptOthers.count).map(\.key)), "\(context): not the newest others")
            }
        }
    }

    /// id → (pubdate, first seen), as stored.
    private func rows(_ path: String) throws -> [String: (pubdate: Int64, firstSeen: Int64)] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        var rows: [String: (pubdate: Int64, firstSeen: Int64)] = [:]
        for row in try sqlite(path, "SELECT id, pubdate_unix_time, first_seen_unix_time FROM items") {
            rows[row[0] ?? ""] = (Int64(row[1] ?? "") ?? -1, Int64(row[2] ?? "") ?? -1)
        }
        return rows
    }
}
