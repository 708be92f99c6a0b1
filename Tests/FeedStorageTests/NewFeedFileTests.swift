import FeedModel
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A feed's first database is written as `feed_<id>.sqlite.new` and takes its name only once
/// committed: nothing half-written is ever under a feed's name, nothing Feedmill did not
/// create is deleted or replaced on the way.
@Suite("A new feed database appears whole")
struct NewFeedFileTests {
    private func entry(_ id: String) -> Entry {
        Entry(id: id, idSource: .native, permalink: nil, title: "T", summary: "S", pubdate: 1_000, updated: nil, author: nil)
    }

    private func names(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    @Test func theFileTakesItsNameOnlyWhenItsFirstTransactionCommits() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        let database = try FeedDatabase(path: path, identity: FeedIdentity(feedID: 1, originURL: "https://site.example/feed"))
        let upsert = try database.beginUpsert(now: 5_000)
        try upsert.add(entry("a"))
        #expect(try names(in: directory) == ["feed_1.sqlite.new"], "written under its temporary name, with no journal file")
        #expect(FeedDatabaseFile.condition(of: path) == .missing)
        #expect(try upsert.commit() == UpsertSummary(inserted: 1))
        #expect(try names(in: directory) == ["feed_1.sqlite"])
        #expect(FeedDatabaseFile.condition(of: path) == .healthy)
        #expect(try sqlite(path, "SELECT id FROM items") == [["a"]])
        #expect(try sqlite(path, "PRAGMA journal_mode") == [["delete"]], "a rollback journal on disk from then on")
        #expect(try sqlite(path, "PRAGMA integrity_check") == [["ok"]])
        // The same object goes on writing the file under its name, journaled as any other.
        #expect(try database.upsert([entry("a"), entry("b")], now: 6_000) == UpsertSummary(inserted: 1, unchanged: 1))
        #expect(try names(in: directory) == ["feed_1.sqlite"])
        #expect(try FeedDatabase.stampedIdentity(at: path) == FeedIdentity(feedID: 1, originURL: "https://site.example/feed"))
    }

    @Test func aPreviewOrAFailureLeavesNoFileBehind() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        let database = try FeedDatabase(path: path)
        #expect(try database.preview([entry("a")], now: 5_000) == UpsertSummary(inserted: 1))
        #expect(try names(in: directory).isEmpty)
        do {
            let upsert = try database.beginUpsert(now: 5_000)
            try upsert.add(entry("a"))
            // Dropped without a commit, as a worker does when the transfer fails half-way.
        }
        #expect(try names(in: directory).isEmpty)
    }

    /// A temporary name whose removal failed right after the link put the database in place
    /// (an I/O error, issue 52) is the database itself under a second name: the next open
    /// removes that name, and nothing else; a different file there is left alone.
    @Test func aTemporaryNameStillLinkedToTheDatabaseIsRemovedByTheNextOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        let identity = FeedIdentity(feedID: 1, originURL: "https://site.example/feed")
        try FeedDatabase(path: path, identity: identity).upsert([entry("a")], now: 5_000)
        #expect(link(path, path + ".new") == 0)
        let database = try FeedDatabase(path: path, identity: identity)
        #expect(try names(in: directory) == ["feed_1.sqlite"])
        #expect(try database.upsert([entry("a"), entry("b")], now: 6_000) == UpsertSummary(inserted: 1, unchanged: 1))
        #expect(try sqlite(path, "SELECT id FROM items ORDER BY id") == [["a"], ["b"]])

        // Not the same file: not this open's to remove.
        try Data("someone's file".utf8).write(to: URL(fileURLWithPath: path + ".new"))
        _ = try FeedDatabase(path: path, identity: identity)
        #expect(try names(in: directory) == ["feed_1.sqlite", "feed_1.sqlite.new"])
        #expect(FileManager.default.contents(atPath: path + ".new") == Data("someone's file".utf8))
    }

    /// What a run killed while writing a new feed leaves: kept for a person, out of the way.
    @Test func aTemporaryLeftByAKilledRunIsSetAsideNeverDeleted() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        try Data("half a database".utf8).write(to: URL(fileURLWithPath: path + ".new"))
        let database = try FeedDatabase(path: path)
        #expect(try database.upsert([entry("a")], now: 5_000) == UpsertSummary(inserted: 1))
        let files = try names(in: directory)
        #expect(files.count == 2 && files[0] == "feed_1.sqlite")
        #expect(files[1].hasPrefix("feed_1.sqlite.new.set-aside-"))
        #expect(FileManager.default.contents(atPath: directory.url.path + "/" + files[1]) == Data("half a database".utf8))
        #expect(FeedDatabaseFile.feedIDs(inDirectory: directory.url.path) == [1, 1], "the set-aside file still holds its feedid")
    }

    /// A file that appears under the feed's name while its new database is written (a person
    /// restoring a backup, say) is never replaced: the write fails and the file is as it was.
    @Test func aFileThatAppearsUnderTheNameMeanwhileIsNeverReplaced() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.path + "/feed_1.sqlite"
        let database = try FeedDatabase(path: path)
        let upsert = try database.beginUpsert(now: 5_000)
        try upsert.add(entry("a"))
        try Data("restored by hand".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StorageError.self) { try upsert.commit() }
        #expect(FileManager.default.contents(atPath: path) == Data("restored by hand".utf8))
        #expect(try names(in: directory) == ["feed_1.sqlite"], "the new file, this process's own, is gone")
    }

    /// A link planted under the temporary name is set aside (the link, not its target) and
    /// never written through.
    @Test func aLinkUnderTheTemporaryNameIsNeverWrittenThrough() throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let target = outside.url.path + "/precious"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: target))
        let path = directory.url.path + "/feed_1.sqlite"
        try FileManager.default.createSymbolicLink(atPath: path + ".new", withDestinationPath: target)
        let database = try FeedDatabase(path: path)
        #expect(try database.upsert([entry("a")], now: 5_000) == UpsertSummary(inserted: 1))
        #expect(FileManager.default.contents(atPath: target) == Data("precious".utf8))
        #expect(FeedDatabaseFile.condition(of: path) == .healthy)
    }
}
