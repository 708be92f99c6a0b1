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

    /// The reader fields (issue 40) like every other column: a value of the wrong type, or a
    /// list that is not a JSON array, is refused by the publisher and repaired by `--feed`.
    @Test func wrongValuesInTheReaderFieldsAreRefusedByPublishingAndRepairedByAnUpdateByID() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        let path = run.data + "/feed_1.sqlite"
        for (sql, column) in [
            ("image_url = X'41'", "image_url"), ("enclosures_json = X'5b5d'", "enclosures_json"),
            ("categories_json = 'not json'", "categories_json"), ("authors_json = '{\"name\":\"x\"}'", "authors_json"),
        ] {
            try tamper(path, "UPDATE items SET \(sql), change_seq = change_seq + 100 WHERE rowid = 1")
            // A hand edit is no change the catalog's log records: the first publication reads
            // every feed, a later one the feeds it is told to read (or that changed since).
            let refused = try publishedBefore(run) ? run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--feed", "1"]) : run.publishAll()
            #expect(refused.status == 1, "\(column): \(refused.stderr)")
            #expect(refused.stderr.contains("feed 1 not published") && refused.stderr.contains("items.\(column)"), "\(column): \(refused.stderr)")
            #expect(refused.stderr.contains("rss-update --feed 1 repairs it"), "\(column): \(refused.stderr)")

            let repaired = try run.update.runCapturing(["--feed", "1"] + run.options)
            #expect(repaired.status == 0, "\(column): \(repaired.stderr)")
            #expect((repaired.stdout + repaired.stderr).contains("repaired items.\(column) of item"), "\(column): \(repaired.stdout)")
            #expect(try sqlite(path, "SELECT COUNT(*) FROM items WHERE \(anyWronglyTypedItemValue)") == [["0"]])
            #expect(try sqlite(path, "SELECT typeof(\(column)) FROM items WHERE rowid = 1") == [["null"]])
            let caughtUp = try run.publishAll()
            #expect(caughtUp.status == 0, "\(column): \(caughtUp.stderr)")
            #expect(try publishedFeeds(run.out) == [1, 2])
        }
    }

    private func publishedBefore(_ run: BinaryRun) throws -> Bool {
        FileManager.default.fileExists(atPath: run.out + "/manifest.json")
    }

    @Test func aPublishedCopyCopiedBackToRestoreAFeedIsNotTakenForANewerDatabase() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        try FileManager.default.removeItem(atPath: run.data + "/feed_1.sqlite")
        try FileManager.default.copyItem(atPath: run.out + "/feed_1.sqlite", toPath: run.data + "/feed_1.sqlite")
        #expect(try sqlite(run.data + "/feed_1.sqlite", "PRAGMA user_version") == [["\(Snapshot.feedSchemaVersion)"]])
        let result = try run.update.runCapturing(["--feed", "1"] + run.options)
        #expect(result.status == 0 && !result.stderr.contains("newer"), "\(result.stderr)")
        #expect(try run.itemCount(1) == 3)
    }

    @Test func aFeedDatabaseWrittenByANewerFeedmillIsNeitherReadNorWritten() throws {
        let harness = try Harness()
        let server = try feedFarm(count: 2, items: 2, delay: 0)
        try harness.add([server.baseURL + "/feed/0.xml", server.baseURL + "/feed/1.xml"])
        #expect(try harness.update(.all).report.failures.isEmpty)
        for (id, sql, named) in [
            (Int64(1), "PRAGMA user_version = 3", "schema version 3 (this one writes up to 2)"),
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
        .init(table: "items", column: "image_url", kind: "text"), .init(table: "items", column: "enclosures_json", kind: "json"),
        .init(table: "items", column: "categories_json", kind: "json"), .init(table: "items", column: "authors_json", kind: "json"),
        .init(table: "about", column: "link", kind: "text"), .init(table: "about", column: "description", kind: "text"),
        .init(table: "about", column: "image_url", kind: "text"), .init(table: "about", column: "language", kind: "text"),
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
        "-5", "0", "7", #"'[{"url":"https://cdn.example/a.mp3"}]'"#, #"'{"term":"x"}'"#,
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
        // A reader-field list: text holding a JSON array.
        case ("json", "text"):
            return !((try? JSONSerialization.jsonObject(with: Data((stored[1] ?? "").utf8), options: [.fragmentsAllowed])) is [Any])
        case ("integer", "integer"):
            guard let bounds = target.bounds, let number = Int64(stored[1] ?? "") else { return false }
            return !bounds.contains(number)
        default: return true
        }
    }
}
