import FeedModel
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import GRDB
import TestSupport
import Testing

@Suite("Stored values never stop a command", .serialized)
struct StoredValueTests {
    @Test func aWronglyTypedItemValueIsNeverPublishedTheOtherFeedsAreAndAnUpdateByIDRepairsIt() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        try tamper(run.data + "/feed_1.sqlite", "UPDATE items SET pubdate_unix_time = 'x' WHERE rowid = 1")
        // The red team's repro: a first publication with the value in place died with SIGILL.
        let refused = try run.publishAll()
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("feed 1 not published") && refused.stderr.contains("pubdate_unix_time"), "\(refused.stderr)")
        #expect(refused.stderr.contains("holds text 'x', not an integer") && refused.stderr.contains("rss-update --feed 1 repairs it"))
        #expect(try publishedFeeds(run.out) == [2], "the other feed is published")

        let repaired = try run.update.runCapturing(["--feed", "1"] + run.options)
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect((repaired.stdout + repaired.stderr).contains("repaired items.pubdate_unix_time of item"), "\(repaired.stdout)")
        #expect(try sqlite(run.data + "/feed_1.sqlite", "SELECT COUNT(*) FROM items WHERE \(anyWronglyTypedItemValue)") == [["0"]])
        #expect(try sqlite(run.data + "/feed_1.sqlite", "SELECT pubdate_is_first_seen FROM items WHERE rowid = 1") == [["1"]])
        let caughtUp = try run.publishAll()
        #expect(caughtUp.status == 0, "\(caughtUp.stderr)")
        #expect(try publishedFeeds(run.out) == [1, 2])
        #expect(try sqlite(run.out + "/feed_1.sqlite", "SELECT typeof(pubdate_unix_time) FROM items GROUP BY 1") == [["integer"]])
    }

    @Test(arguments: [
        ("pubdate_unix_time", "'x'"), ("pubdate_unix_time", "1e300"), ("pubdate_unix_time", "X'00'"), ("first_seen_unix_time", "'x'"),
        ("change_seq", "'x'"), ("change_seq", "1e300"), ("title", "X'00ff'"), ("summary", "X''"), ("id", "X'6531'"),
        ("pubdate_is_first_seen", "'yes'"), ("updated_unix_time", "2.5"), ("author", "X'4a6f'"), ("permalink", "X'41'"),
        ("id_source", "X'00'"), ("content_hash", "X'00'"),
    ])
    func retentionRepairsAWronglyTypedValueInsteadOfStopping(column: String, value: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try FeedDatabase(path: path).upsert((0..<5).map { entry("e\($0)", pubdate: 1_000 + Int64($0)) }, now: 5_000)
        try tamper(path, "UPDATE items SET \(column) = \(value) WHERE id = 'e1'")
        let summary = try FeedDatabase(path: path).upsert([entry("e4", pubdate: 1_004)], now: 6_000, retention: Retention(keepItems: 3))
        #expect(summary.repairs.contains { $0.contains("items.\(column)") }, "\(summary.repairs)")
        #expect(try sqlite(path, "SELECT COUNT(*) FROM items WHERE \(anyWronglyTypedItemValue)") == [["0"]])
        #expect(try sqlite(path, "SELECT COUNT(*) FROM items") == [["3"]], "retention went on to keep the newest three")
        // Repaired once: the next run finds nothing to repair.
        let next = try FeedDatabase(path: path).upsert([entry("e4", pubdate: 1_004)], now: 7_000, retention: Retention(keepItems: 3))
        #expect(next.repairs.isEmpty)
    }

    @Test func aRepairKeepsWhatTheRowStillSaysAndIsPublishedAsAChange() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try FeedDatabase(path: path).upsert([entry("a", pubdate: 1_000), entry("b", pubdate: 2_000)], now: 4_000)
        let before = try Snapshot.feedFingerprint(path)
        try tamper(path, "UPDATE items SET pubdate_unix_time = 'soon', title = X'4869' WHERE id = 'a'")
        let lines = try FeedDatabase(path: path).repairValues(now: 9_000)
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("repaired items.") && $0.contains("of item 'a'") }, "\(lines)")
        let row = try sqlite(path, "SELECT pubdate_unix_time, pubdate_is_first_seen, title, content_hash IS NULL, change_seq FROM items WHERE id = 'a'")
        #expect(row == [["4000", "1", "Hi", "1", "2"]], "first-seen time as the date, the BLOB's text, a new change number")
        #expect(try Snapshot.feedFingerprint(path) != before, "the publisher sees the repair")
        #expect(try FeedDatabase(path: path).repairValues(now: 9_000).isEmpty)
    }

    @Test func idsThatAreBLOBsOrHoldANulBecomeIdsOfTheirOwnAndArePublished() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try FeedDatabase(path: path).upsert([entry("a"), entry("b"), entry("c"), entry("d")], now: 4_000)
        try tamper(path, """
            UPDATE items SET id = X'00ab' WHERE id = 'a'; UPDATE items SET id = X'00cd' WHERE id = 'b';
            UPDATE items SET id = CAST(X'630064' AS TEXT) WHERE id = 'c'; UPDATE items SET id = X'6565' WHERE id = 'd';
            """)
        // Read up to their NULs, two of them would be one id: the copy for clients is refused.
        let out = try TemporaryDirectory()
        #expect(throws: StorageError.self) { try Snapshot.writeFeed(from: path, to: out.url.path + "/feed_1.v1.sqlite") }
        let lines = try FeedDatabase(path: path).repairValues(now: 5_000)
        #expect(lines.count == 4, "\(lines)")
        #expect(try sqlite(path, "SELECT id FROM items ORDER BY id")
            == [["ee"], ["urn:feedmill:repaired-id:00ab"], ["urn:feedmill:repaired-id:00cd"], ["urn:feedmill:repaired-id:630064"]])
        #expect(try Snapshot.writeFeed(from: path, to: out.url.path + "/feed_1.v1.sqlite").rowCount == 4)
    }

    @Test func aPublishedCopyCopiedBackToRestoreAFeedIsNotTakenForANewerDatabase() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        try FileManager.default.removeItem(atPath: run.data + "/feed_1.sqlite")
        try FileManager.default.copyItem(atPath: run.out + "/feed_1.sqlite", toPath: run.data + "/feed_1.sqlite")
        #expect(try sqlite(run.data + "/feed_1.sqlite", "PRAGMA user_version") == [["1"]])
        let result = try run.update.runCapturing(["--feed", "1"] + run.options)
        #expect(result.status == 0 && !result.stderr.contains("newer"), "\(result.stderr)")
        #expect(try run.itemCount(1) == 3)
    }

    @Test func aChangeNumberAtTheLargestIntegerIsRenumberedSoChangesKeepBeingPublished() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try FeedDatabase(path: path).upsert([entry("a"), entry("b")], now: 4_000)
        try tamper(path, "UPDATE items SET change_seq = 9223372036854775807 WHERE id = 'a'")
        let before = try Snapshot.feedFingerprint(path)
        try FeedDatabase(path: path).upsert([entry("a"), entry("b", title: "changed")], now: 5_000)
        #expect(try Snapshot.feedFingerprint(path) != before)
        #expect(try sqlite(path, "SELECT id, change_seq FROM items ORDER BY id") == [["a", "1"], ["b", "3"]])
    }

    @Test func aFeedDatabaseWrittenByANewerFeedmillIsNeitherReadNorWritten() throws {
        let harness = try Harness()
        let server = try feedFarm(count: 2, items: 2, delay: 0)
        try harness.add([server.baseURL + "/feed/0.xml", server.baseURL + "/feed/1.xml"])
        #expect(try harness.update(.all).report.failures.isEmpty)
        for (id, sql, named) in [
            (Int64(1), "PRAGMA user_version = 3", "schema version 3 (this one writes up to 1)"),
            (2, "INSERT INTO grdb_migrations VALUES ('items-from-the-future')", "(items-from-the-future)"),
        ] {
            try tamper(harness.databasePath(id), sql)
            let bytes = harness.fileBytes(harness.databasePath(id))
            do {
                _ = try FeedDatabase(path: harness.databasePath(id))
                Issue.record("a newer database was opened")
            } catch {
                #expect(error.kind == .newer && error.message.contains("newer Feedmill") && error.message.contains(named), "\(error)")
            }
            #expect(harness.fileBytes(harness.databasePath(id)) == bytes, "refused before anything is written")
        }
        // The update fails both with their own kind and writes neither; publishing skips them.
        harness.now += 86_400
        try tamper(harness.directory.url.path + "/all_feeds.sqlite", "UPDATE fetch_state SET body_hash = NULL, etag = NULL")
        let before = [harness.fileBytes(harness.databasePath(1)), harness.fileBytes(harness.databasePath(2))]
        let ran = try harness.update(.all)
        #expect(ran.report.failures.count == 2)
        #expect(try harness.feed(1).state.lastErrorKind == .newerDatabase)
        #expect([harness.fileBytes(harness.databasePath(1)), harness.fileBytes(harness.databasePath(2))] == before)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: harness.directory.url.path)).contains { $0.contains("set-aside") })
    }

    @Test func aCatalogWrittenByANewerFeedmillStopsEveryCommandWithItsVersion() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        try tamper(run.data + "/all_feeds.sqlite", "INSERT INTO grdb_migrations VALUES ('catalog-from-the-future')")
        for result in [
            try run.updateAll(), try run.publishAll(),
            try Executable(name: "rss-feeds").runCapturing(["list", "--data-dir", run.data]),
        ] {
            #expect(result.status == 70, "\(result.stderr)")
            #expect(result.stderr.contains("written by a newer Feedmill") && result.stderr.contains("catalog-from-the-future"), "\(result.stderr)")
        }
    }

    @Test func lostColumnsAreRestoredAndALostOriginalColumnSetsTheFileAside() throws {
        let harness = try Harness()
        let server = try feedFarm(count: 2, items: 2, delay: 0)
        try harness.add([server.baseURL + "/feed/0.xml", server.baseURL + "/feed/1.xml"])
        #expect(try harness.update(.all).report.failures.isEmpty)
        try tamper(harness.databasePath(1), "ALTER TABLE items DROP COLUMN author; DROP INDEX items_change_seq")
        try tamper(harness.databasePath(2), "ALTER TABLE items DROP COLUMN title")
        try tamper(harness.directory.url.path + "/all_feeds.sqlite", "UPDATE fetch_state SET body_hash = NULL, etag = NULL")
        harness.now += 86_400
        let ran = try harness.update(.all)
        let notes = ran.feeds.first { $0.feedID == 1 }?.notes ?? []
        #expect(notes.contains { $0.contains("restored the column(s) its items table had lost: author") }, "\(notes)")
        #expect(try sqlite(harness.databasePath(1), "SELECT COUNT(*) FROM pragma_table_info('items') WHERE name = 'author'") == [["1"]])
        #expect(try sqlite(harness.databasePath(1), "SELECT COUNT(*) FROM items") == [["2"]])
        let second = ran.report.failures.first { $0.feedID == 2 }
        guard case .failed(.damagedDatabase, let message)? = second?.outcome else {
            Issue.record("feed 2 was not set aside: \(String(describing: second))")
            return
        }
        #expect(message.contains("lost its title column"), "\(message)")
    }

    @Test func aWronglyTypedCatalogValueIsReadAsAbsentByReadersAndRepairedByWriters() throws {
        let harness = try Harness()
        try harness.add(["https://a.example/f", "https://b.example/f"])
        let path = harness.directory.url.path + "/all_feeds.sqlite"
        var first = try harness.feed(1)
        (first.title, first.lastUpdate) = ("A", 100)
        try harness.catalog.save(first)
        try tamper(path, """
            UPDATE fetch_state SET keep_items = 'x', keep_days = -5, next_attempt_unix_time = 1e300, gone = 7, etag = X'00ff' WHERE feedid = 1;
            UPDATE last_update SET when_unix_time = 'yesterday' WHERE feedid = 1;
            UPDATE about SET title = X'4162' WHERE feedid = 1;
            INSERT INTO about (feedid, title) VALUES ('zz', 'orphan');
            UPDATE feedmill_catalog SET value = 'many';
            """)
        // A reader: every value reads, the wrong ones as absent, each named.
        let reader = try Catalog(readingAt: path)
        let feed = try #require(try reader.feed(id: 1))
        #expect(feed.state.retention == .keepEverything && feed.lastUpdate == nil && feed.state.nextAttempt == nil)
        #expect(feed.unreadable.contains("fetch_state.keep_items holds text 'x'"), "\(feed.unreadable)")
        #expect(feed.unreadable.contains { $0.contains("keep_days holds -5") } && feed.unreadable.contains { $0.contains("next_attempt_unix_time") })
        // The clients' copy: only values of the client tables' types.
        let directory = try TemporaryDirectory()
        let snapshot = try Snapshot.writeCatalog(from: path, to: directory.url.path + "/all_feeds.v1.sqlite")
        #expect(snapshot.problems.count == 3, "\(snapshot.problems)")
        #expect(try sqlite(snapshot.path, "SELECT feedid, typeof(title) FROM about ORDER BY feedid") == [["1", "null"]])
        #expect(try sqlite(snapshot.path, "SELECT feedid, typeof(when_unix_time) FROM last_update") == [["1", "null"]])
        // A writer: each value repaired once, and said.
        let writer = try Catalog(path: path)
        #expect(writer.repairs.count == 10, "nine values and the orphan row: \(writer.repairs)")
        #expect(writer.repairs.contains("removed 1 about row(s) whose feedid is not an integer"))
        #expect(writer.repairs.contains { $0.contains("fetch_state.keep_items of feed 1 holds text 'x'") })
        #expect(try writer.feed(id: 1)?.unreadable == [])
        #expect(try sqlite(path, "SELECT typeof(keep_items), typeof(keep_days), typeof(next_attempt_unix_time), gone, typeof(etag) FROM fetch_state WHERE feedid = 1")
            == [["null", "null", "null", "1", "text"]], "gone = 7 is true, as it read")
        #expect(try sqlite(path, "SELECT title FROM about") == [["Ab"]], "a BLOB holding text is that text")
        #expect(try sqlite(path, "SELECT COUNT(*) FROM about") == [["1"]], "the orphan row is gone")
        #expect(try writer.feedIDHighWater() == 2)
        #expect(try Catalog(path: path).repairs.isEmpty)
    }
}

/// The property the red team checked by hand: random wrongly typed (or wild) values written
/// into random columns of real feed databases and catalogs never make `rss-update` (with
/// retention) or `rss-publish` end otherwise than 0 or 1; every other feed is published; the
/// value, when it is wrong for its column, is named in what the commands print.
@Suite("Random stored values, end to end", .serialized)
struct RandomStoredValueTests {
    /// A column, where it is, and what it must hold (`nil`: any integer; a range: integers in it).
    struct Target {
        let table: String
        let column: String
        let kind: String
        var bounds: ClosedRange<Int64>? = nil
        var inCatalog: Bool { table != "items" }
    }

    static let targets: [Target] = [
        .init(table: "items", column: "id", kind: "text"), .init(table: "items", column: "title", kind: "text"),
        .init(table: "items", column: "summary", kind: "text"), .init(table: "items", column: "pubdate_unix_time", kind: "integer"),
        .init(table: "items", column: "permalink", kind: "text"), .init(table: "items", column: "updated_unix_time", kind: "integer"),
        .init(table: "items", column: "author", kind: "text"), .init(table: "items", column: "first_seen_unix_time", kind: "integer"),
        .init(table: "items", column: "pubdate_is_first_seen", kind: "integer"), .init(table: "items", column: "content_hash", kind: "text"),
        .init(table: "items", column: "change_seq", kind: "integer"),
        .init(table: "about", column: "title", kind: "text"), .init(table: "about", column: "feedid", kind: "integer"),
        .init(table: "last_update", column: "when_unix_time", kind: "integer"),
        .init(table: "fetch_state", column: "etag", kind: "text"), .init(table: "fetch_state", column: "origin_url", kind: "text"),
        .init(table: "fetch_state", column: "consecutive_errors", kind: "integer", bounds: 0...Int64.max),
        .init(table: "fetch_state", column: "next_attempt_unix_time", kind: "integer"),
        .init(table: "fetch_state", column: "last_success_unix_time", kind: "integer"),
        .init(table: "fetch_state", column: "hint_interval_seconds", kind: "integer"),
        .init(table: "fetch_state", column: "gone", kind: "integer", bounds: 0...1),
        .init(table: "fetch_state", column: "keep_items", kind: "integer", bounds: 1...10_000_000),
        .init(table: "fetch_state", column: "keep_days", kind: "integer", bounds: 1...36_500),
        .init(table: "fetch_state", column: "skip_hours", kind: "text"),
    ]

    static let values = [
        "'x'", "'soon'", "1e300", "-1e300", "2.5", "X'00ff'", "X''", "X'4869'", "9223372036854775807", "-9223372036854775808",
        "-5", "0", "7",
    ]

    @Test func randomWrongValuesNeverStopUpdateOrPublishAndAreNamed() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["FEEDMILL_TEST_ROUNDS"] ?? "") ?? 10
        var random = SeededGenerator.announced()
        for round in 0..<rounds {
            let run = try BinaryRun(feeds: 3, items: 4)
            #expect(try run.createAll().status == 0)
            #expect(try run.publishAll().status == 0)
            let victim = Int64.random(in: 1...3, using: &random)
            var target = Self.targets.randomElement(using: &random) ?? Self.targets[0]
            var value = Self.values.randomElement(using: &random) ?? "'x'"
            let path = target.inCatalog ? run.data + "/all_feeds.sqlite" : run.data + "/feed_\(victim).sqlite"
            let row = target.inCatalog ? "feedid = \(victim)" : "rowid = 1"
            // Some values cannot be written at all (NOT NULL, INTEGER PRIMARY KEY): another pick.
            var attempts = 0
            // A feed database's row also gets a new change number (unless that is the target), as an edit by hand
            // that the publisher must see.
            func bump() -> String { target.inCatalog || target.column == "change_seq" ? "" : ", change_seq = change_seq + 100" }
            while (try? tamper(path, "UPDATE \(target.table) SET \(target.column) = \(value)\(bump()) WHERE \(row)")) == nil, attempts < 20 {
                target = Self.targets.randomElement(using: &random) ?? Self.targets[0]
                value = Self.values.randomElement(using: &random) ?? "'x'"
                attempts += 1
            }
            let context = "seed \(random.seed) round \(round): \(target.table).\(target.column) = \(value) for feed \(victim)"
            let stored = try sqlite(path, "SELECT typeof(\(target.column)), \(target.column) FROM \(target.table) WHERE \(row)").first
            let wrong = stored.map { Self.isWrong($0, target) } ?? false
            // Make every feed read its content again, so retention reads every row.
            try tamper(run.data + "/all_feeds.sqlite", "UPDATE fetch_state SET body_hash = NULL, etag = NULL WHERE typeof(etag) <> 'blob'")

            let early = try run.publishAll()
            #expect([0, 1].contains(early.status), "\(context): publish \(early.status) \(early.stderr)")
            #expect(Set<Int64>([1, 2, 3]).subtracting([victim]).isSubset(of: Set(try publishedFeeds(run.out))), "\(context): early")
            let update = try run.update.runCapturing(["--all", "--keep-items", "2"] + run.options)
            #expect([0, 1].contains(update.status), "\(context): update \(update.status) \(update.stderr)")
            if wrong {
                #expect((update.stdout + update.stderr + early.stderr).contains(target.column), "\(context): not named\n\(update.stdout)\n\(update.stderr)")
            }
            let late = try run.publishAll()
            #expect([0, 1].contains(late.status), "\(context): publish \(late.status) \(late.stderr)")
            #expect(Set<Int64>([1, 2, 3]).subtracting([victim]).isSubset(of: Set(try publishedFeeds(run.out))), "\(context): late")
            // And the runs after it go on as usual.
            let again = try run.update.runCapturing(["--all", "--keep-items", "2"] + run.options)
            #expect([0, 1].contains(again.status), "\(context): second update \(again.status) \(again.stderr)")
            #expect([0, 1].contains(try run.publishAll().status), "\(context)")
            #expect(try sqlite(run.out + "/feed_1.sqlite", "PRAGMA integrity_check") == [["ok"]])
        }
    }

    /// Whether the stored value (its `typeof` and text) breaks the target's contract.
    static func isWrong(_ stored: [String?], _ target: Target) -> Bool {
        let type = stored[0] ?? "null"
        switch (target.kind, type) {
        case (_, "null"): return false
        case ("text", "text"): return false
        case ("integer", "integer"):
            guard let bounds = target.bounds, let number = Int64(stored[1] ?? "") else { return false }
            return !bounds.contains(number)
        default: return true
        }
    }
}
