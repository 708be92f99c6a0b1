import FeedBasics
import FeedModel
import FeedPipeline
import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import GRDB
import TestSupport
import Testing

@Suite("Lose nothing, let nothing in", .serialized)
struct DataSafetyTests {
    // MARK: Publishing never deletes what it did not write

    @Test(arguments: ["same", "inside", "contains", "symlink"])
    func publishingIntoTheDataDirectoryIsRefusedAndDeletesNothing(layout: String) throws {
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        let before = try run.listing(run.data)
        var data = run.data
        let out: String
        switch layout {
        case "same": out = run.data
        case "inside": out = run.data + "/publish"
        case "contains":
            // The data directory inside the output directory.
            out = run.root.url.path
        default:
            out = run.root.url.path + "/link-to-data"
            try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: run.data)
            data = run.data + "/."
        }
        let result = try run.publish.runCapturing(["--data-dir", data, "--out", out])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("refusing to publish into"), "\(result.stderr)")
        let after = try run.listing(run.data)
        #expect(after == before, "nothing in the data directory changed: \(after) \(before)")
        #expect(try run.itemCount(1) == 3)
    }

    @Test func thePublisherRemovesOnlyFilesItWroteItself() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        try FileManager.default.createDirectory(atPath: run.out + "/feed_97.notes.sqlite", withIntermediateDirectories: true)
        _ = try TemporaryDirectory.writeFile(run.out + "/feed_97.notes.sqlite/notes.txt", "mine")
        let userFiles = ["my.tmp-notes.txt", "feed_5.v1.sqlite", "feed_1.v1-v9.delta.json", "all_feeds.v77.sqlite", "notes.tmp-12"]
        for name in userFiles { _ = try TemporaryDirectory.writeFile(run.out + "/" + name, "a user's file") }
        // A temporary file of a publisher killed mid-write: the publisher's own, so it goes.
        _ = try TemporaryDirectory.writeFile(run.out + "/feed_2.v1.sqlite.tmp-99999", "half a snapshot")

        // Six generations, each changing feed 1, so that old versions and deltas are retired
        // (three earlier versions are kept).
        var versionFiles: [Int: String] = [:]
        var deltaFiles: [String: String] = [:]  // "v<from>-v<to>" → file
        for round in 0..<6 {
            if round > 0 {
                try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("extra-\(round)")], now: 5_000)
            }
            let result = try run.publishAll()
            #expect(result.status == 0, "\(result.stderr)")
            let feed = try #require(try PublishHarnessReader.manifest(run.out).feeds.first { $0.feedID == 1 })
            versionFiles[feed.version] = feed.file
            for delta in feed.deltas { deltaFiles["v\(delta.fromVersion)-v\(feed.version)"] = delta.file }
        }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: run.out))
        for name in userFiles { #expect(names.contains(name), "\(name) is not the publisher's and stays") }
        #expect(FileManager.default.fileExists(atPath: run.out + "/feed_97.notes.sqlite/notes.txt"))
        #expect(!names.contains("feed_2.v1.sqlite.tmp-99999"), "its own stale temporary file is removed")
        // Versions are still counted above every version a format-1 name there gives (the
        // user's `feed_1.v1-v9.delta.json`): v10 to v15; their files are named by their digests.
        let record = try PublishHarnessReader.manifest(run.out)
        let feed1 = try #require(record.feeds.first { $0.feedID == 1 })
        #expect(feed1.version == 15 && feed1.history.map(\.version) == [14, 13, 12])
        let kept = Set([feed1.file] + feed1.history.map(\.file) + feed1.deltas.map(\.file)
            + (feed1.previousEntry.map { [$0.file] + $0.deltas.map(\.file) } ?? []))
        for name in kept { #expect(names.contains(name), "\(name)") }
        // Its own old versions and deltas go, once no client can be reading them: only what the
        // record keeps, or retired by this very publication, is left of feed 1's.
        let retiredNow = Set((record.retired ?? []).filter { $0.generation == record.generation }.map(\.name))
        let feed1Files = names.filter {
            switch PublishedName(fileName: $0) {
            case .feedSnapshot(1, _)?, .feedDeltaFile(1, _)?: true
            default: false
            }
        }
        #expect(feed1Files.subtracting(kept).isSubset(of: retiredNow), "\(feed1Files.subtracting(kept).subtracting(retiredNow))")
        for old in [versionFiles[10], versionFiles[11], deltaFiles["v10-v11"], deltaFiles["v10-v13"], deltaFiles["v11-v13"]] {
            let old = try #require(old)
            #expect(!names.contains(old), "its own old \(old) goes, once no client can be reading it")
        }
        for kept in [versionFiles[12], versionFiles[15], deltaFiles["v12-v15"]] { #expect(names.contains(try #require(kept))) }
        #expect(!names.contains { $0.hasPrefix("feed_1.v") && $0.hasSuffix(".sqlite") && Int($0.dropFirst(8).prefix { $0.isNumber }) ?? 0 < 10 })
    }

    @Test func aLinkPlantedAtATemporaryNameIsReplacedNotWrittenThrough() throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let victim = try outside.write("victim.txt", "precious")
        try FileManager.default.createSymbolicLink(atPath: directory.url.path + "/atom.xml.tmp-\(getpid())", withDestinationPath: victim)
        try DurableFiles.write(Array("<feed/>".utf8), to: directory.url.path + "/atom.xml")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try String(contentsOfFile: directory.url.path + "/atom.xml", encoding: .utf8) == "<feed/>")
    }

    // MARK: A lost catalog never merges feeds

    @Test(arguments: ["deleted", "emptied"])
    func aLostCatalogBesideFeedDatabasesIsAnErrorNotAFreshStart(damage: String) throws {
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        let catalog = run.data + "/all_feeds.sqlite"
        if damage == "deleted" {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: catalog + suffix) }
        } else {
            try Data().write(to: URL(fileURLWithPath: catalog))
        }
        let before = try run.listing(run.data)
        for (name, result) in [
            ("rss-create", try run.createAll()), ("rss-update", try run.updateAll()), ("rss-publish", try run.publishAll()),
        ] {
            #expect(result.status == 70, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("is missing or empty, but 3 feed database(s) are beside it"), "\(name): \(result.stderr)")
            #expect(result.stderr.contains("Restore all_feeds.sqlite from a backup"))
        }
        #expect(try run.listing(run.data) == before, "nothing was created, adopted or removed")
        #expect(!FileManager.default.fileExists(atPath: run.out + "/manifest.json"))
    }

    @Test func aLostCatalogIsRebuiltFromTheFeedDatabasesOwnStamps() throws {
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        let itemsBefore = try (1...3).map { try sqlite(run.data + "/feed_\($0).sqlite", "SELECT id FROM items ORDER BY id") }
        let urls = try sqlite(run.data + "/all_feeds.sqlite", "SELECT feedid, url FROM feeds ORDER BY feedid")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: run.data + "/all_feeds.sqlite" + suffix) }
        // The operator's list has changed meanwhile: feed 1 is gone from it, a new feed is in it.
        let list = try run.root.write("next.opml", """
            <opml><body><outline xmlUrl="\(run.server.baseURL)/feed/1.xml"/><outline xmlUrl="\(run.server.baseURL)/feed/2.xml"/>
            <outline xmlUrl="\(run.server.baseURL)/feed/3.xml"/></body></opml>
            """)
        let refused = try run.create.runCapturing(["--opml", list] + run.options)
        #expect(refused.status == 70 && refused.stderr.contains("--rebuild-catalog"))
        let rebuilt = try run.create.runCapturing(["--opml", list, "--rebuild-catalog"] + run.options)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains("catalog rebuilt: 3 feed(s) listed again"), "\(rebuilt.stdout)")
        let after = try sqlite(run.data + "/all_feeds.sqlite", "SELECT feedid, url FROM feeds ORDER BY feedid")
        #expect(Array(after.prefix(3)) == urls, "the same feedids for the same URLs")
        #expect(after.last == ["4", run.server.baseURL + "/feed/3.xml"], "a new feed gets a new feedid")
        for feed in 1...3 {
            #expect(try sqlite(run.data + "/feed_\(feed).sqlite", "SELECT id FROM items ORDER BY id") == itemsBefore[feed - 1], "feed \(feed)")
        }
        #expect(try run.updateAll().status == 0)
        #expect(try sqlite(run.data + "/feed_4.sqlite", "SELECT COUNT(*) FROM items") == [["3"]])
    }

    @Test func aCatalogWithNoFeedsBesideFeedDatabasesDoesNotReportSuccess() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        let catalog = try Catalog(path: run.data + "/all_feeds.sqlite")
        _ = try catalog.importOutlines([], prune: true)
        // Prune removes rows; the files stay only if their removal failed or was interrupted.
        #expect(try run.updateAll().status == 70)
        #expect(try run.publishAll().status == 70)
    }

    @Test func feedidsAreNeverReusedAfterAPruneOrBesideLeftoverFiles() throws {
        let harness = try Harness()
        #expect(try harness.add(["https://a.example/f", "https://b.example/f", "https://c.example/f"]) == [1, 2, 3])
        _ = try harness.catalog.importOutlines([CatalogOutline(url: "https://a.example/f")], prune: true)
        #expect(try harness.add(["https://d.example/f"]) == [4], "2 and 3 were given once and never again")
        // Files the catalog does not know (a prune killed before removing it, a restored backup):
        // their feedids are skipped, one by one.
        _ = try TemporaryDirectory.writeFile(harness.directory.url.path + "/feed_5.sqlite.set-aside-1", "x")
        _ = try TemporaryDirectory.writeFile(harness.directory.url.path + "/feed_6.sqlite", "")
        #expect(try harness.add(["https://e.example/f", "https://f.example/f"]) == [7, 8])
        #expect(try harness.catalog.feedIDHighWater() == 8)
        #expect(FeedDatabaseFile.databases(inDirectory: harness.directory.url.path) == [6], "each feedid once, live files only")
    }

    @Test func aStrayFileWithTheLargestFeedidNeitherBlocksNewFeedsNorIsInherited() throws {
        let harness = try Harness()
        let stray = harness.directory.url.path + "/feed_9223372036854775807.sqlite"
        _ = try TemporaryDirectory.writeFile(stray, "")
        #expect(try harness.add(["https://a.example/f", "https://b.example/f"]) == [1, 2])
        // A catalog that has given the largest feedid there is (edited by hand) says so.
        let queue = try GRDB.DatabaseQueue(path: harness.directory.url.path + "/all_feeds.sqlite")
        try queue.write { db in try db.execute(sql: "UPDATE feedmill_catalog SET value = 9223372036854775807") }
        try queue.close()
        do {
            _ = try harness.catalog.importOutlines([CatalogOutline(url: "https://c.example/f")], prune: false)
            Issue.record("a feedid above the largest was given")
        } catch {
            #expect(error.message.contains("no feedid is left to give"), "\(error)")
        }
        #expect(try harness.catalog.feedIDHighWater() == .max, "nothing written by the refused import")
    }

    @Test func aPruneRemovesTheDatabasesOfPrunedFeedsAndSaysWhatItCouldNotRemove() throws {
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        let list = try run.root.write("two.opml", "<opml><body><outline xmlUrl=\"\(run.server.baseURL)/feed/0.xml\"/><outline xmlUrl=\"\(run.server.baseURL)/feed/1.xml\"/></body></opml>")
        let result = try run.create.runCapturing(["--opml", list, "--prune"] + run.options)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("not in the list any more, removed: #3"))
        #expect(!FileManager.default.fileExists(atPath: run.data + "/feed_3.sqlite"))
        #expect(FileManager.default.fileExists(atPath: run.data + "/feed_1.sqlite"))
    }

    @Test func aDatabaseStampedForAnotherFeedIsNeverAdopted() throws {
        let harness = try Harness()
        let path = harness.directory.url.path + "/feed_1.sqlite"
        let a = FeedIdentity(feedID: 1, originURL: "https://a.example/f")
        try FeedDatabase(path: path, identity: a).upsert([entry("a-1")], now: 1)
        #expect(throws: StorageError.self) { try FeedDatabase(path: path, identity: FeedIdentity(feedID: 1, originURL: "https://b.example/f")) }
        do {
            _ = try FeedDatabase(path: path, identity: FeedIdentity(feedID: 2, originURL: a.originURL))
            Issue.record("a file stamped for feed 1 was opened as feed 2")
        } catch {
            #expect(error.kind == .foreign)
            #expect(error.message.contains("belongs to feed 1 (https://a.example/f), not to feed 2"))
        }
        #expect(try FeedDatabase(path: path, identity: a).itemCount() == 1)
        // The brief stamp in the header is what a warm run checks without opening the file.
        #expect(try sqlite(path, "PRAGMA application_id") == [["\(a.applicationID)"]])
        #expect(FeedDatabase.mismatch(at: path, for: a) == nil)
    }

    @Test func aFeedDatabaseCopiedOntoAnotherFeedIsSetAsideAndTheFeedGetsOnlyItsOwnItems() throws {
        let server = try feedFarm(count: 2, items: 3, delay: 0)
        let harness = try Harness()
        try harness.add([server.baseURL + "/feed/0.xml", server.baseURL + "/feed/1.xml"])
        _ = try harness.update()
        try FileManager.default.removeItem(atPath: harness.databasePath(2))
        try FileManager.default.copyItem(atPath: harness.databasePath(1), toPath: harness.databasePath(2))
        let first = try harness.update(.all)
        let report = try #require(first.feeds.first { $0.feedID == 2 }, "\(first.feeds)")
        guard case .failed(let kind, let message) = report.outcome else { Issue.record("\(report.outcome)"); return }
        #expect(kind == .damagedDatabase)
        #expect(message.contains("belongs to feed 1"))
        #expect(try harness.feed(2).state.lastErrorKind == .damagedDatabase)
        let setAside = try FileManager.default.contentsOfDirectory(atPath: harness.directory.url.path).filter { $0.hasPrefix("feed_2.sqlite.set-aside-") }
        #expect(setAside.count == 1, "the foreign file is kept, renamed")
        _ = try harness.update()
        let ids = try harness.items(2).keys.sorted()
        #expect(ids == ["f1-0", "f1-1", "f1-2"], "feed 2 holds its own items and none of feed 1's")
    }

    // MARK: Damaged files: reported, set aside, repaired; everything else carries on

    @Test func aStorageFailureIsRecordedInTheCatalogAndOtherFeedsCarryOn() throws {
        let server = try feedFarm(count: 2, items: 3, delay: 0)
        let harness = try Harness()
        try harness.add([server.baseURL + "/feed/0.xml", server.baseURL + "/feed/1.xml"])
        // A healthy feed database whose every write fails (a trigger refuses new items).
        try FeedDatabase(path: harness.databasePath(1)).upsert([], now: 1)
        let queue = try GRDB.DatabaseQueue(path: harness.databasePath(1))
        try queue.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON items BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END")
        }
        try queue.close()
        let report = try harness.update()
        let failed = try #require(report.failures.first)
        #expect(failed.feedID == 1 && report.updated == 1)
        let state = try harness.feed(1).state
        #expect(state.lastErrorKind == .storage && state.consecutiveErrors == 1)
        #expect(state.lastError?.contains("feed_1.sqlite") == true, "\(state.lastError ?? "")")
        #expect(state.nextAttempt != nil, "retried later, with backoff")
        #expect(FileManager.default.fileExists(atPath: harness.databasePath(1)), "a readable file is never set aside")
    }

    @Test func theWholeCycleCarriesOnPastDamagedAndLinkedDatabasesAndConverges() throws {
        let run = try BinaryRun(feeds: 6)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let outside = try TemporaryDirectory()
        let outsideFile = try outside.write("elsewhere.db", "not Feedmill's")
        // 1 garbage, 2 truncated, 3 zero-length, 4 a link out of the data directory, 5 a dangling link.
        let data = run.data
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: data + "/feed_1.sqlite"))
        let truncated = try Data(contentsOf: URL(fileURLWithPath: data + "/feed_2.sqlite"))
        try truncated.prefix(truncated.count / 2).write(to: URL(fileURLWithPath: data + "/feed_2.sqlite"))
        try Data().write(to: URL(fileURLWithPath: data + "/feed_3.sqlite"))
        try FileManager.default.removeItem(atPath: data + "/feed_4.sqlite")
        try FileManager.default.createSymbolicLink(atPath: data + "/feed_4.sqlite", withDestinationPath: outsideFile)
        try FileManager.default.removeItem(atPath: data + "/feed_5.sqlite")
        try FileManager.default.createSymbolicLink(atPath: data + "/feed_5.sqlite", withDestinationPath: outside.url.path + "/new.db")

        // Publishing carries on with feed 6 and keeps the others' last good snapshots. (It reads
        // them: the change log marked them in the last update run, whose changes a publication
        // reads once more after publishing them.)
        let manifestBefore = try PublishHarnessReader.manifest(run.out)
        let published = try run.publishAll()
        #expect(published.status == 1, "\(published.stderr)")
        for feed in 1...5 { #expect(published.stderr.contains("feed \(feed) not published"), "\(published.stderr)") }
        let manifest = try PublishHarnessReader.manifest(run.out)
        #expect(manifest.feeds.map(\.feedID) == [1, 2, 3, 4, 5, 6])
        for feed in manifest.feeds where feed.feedID <= 5 {
            #expect(feed.file == manifestBefore.feeds.first { $0.feedID == feed.feedID }?.file)
            #expect(FileManager.default.fileExists(atPath: run.out + "/" + feed.file))
        }

        // The update sets every bad file aside, records why, and updates the healthy feed.
        let updated = try run.updateAll()
        #expect(updated.status == 1, "\(updated.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: data)
        for feed in 1...5 {
            #expect(names.contains { $0.hasPrefix("feed_\(feed).sqlite.set-aside-") }, "feed \(feed) set aside: \(names)")
            let state = try sqlite(data + "/all_feeds.sqlite", "SELECT last_error_kind, etag, body_hash FROM fetch_state WHERE feedid = \(feed)")
            #expect(state == [["damaged-database", nil, nil]], "feed \(feed)")
        }
        #expect(updated.stdout.contains("is a symbolic link"))
        #expect(updated.stdout.contains("is truncated"))
        #expect(updated.stdout.contains("is not a SQLite database"))
        #expect(updated.stdout.contains("is empty (0 bytes)"))
        #expect(try String(contentsOfFile: outsideFile, encoding: .utf8) == "not Feedmill's", "the link's target is untouched")
        #expect(!FileManager.default.fileExists(atPath: outside.url.path + "/new.db"), "nothing written through a dangling link")

        // The next runs converge: every feed refetched in full, published, set-aside files kept.
        let repaired = try run.update.runCapturing(run.options)
        #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        for feed in 1...6 { #expect(try run.itemCount(feed) == 3, "feed \(feed)") }
        #expect(try run.publishAll().status == 0)
        #expect(try run.updateAll().status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.contains(".set-aside-") }.count == 5)
        #expect(try String(contentsOfFile: outsideFile, encoding: .utf8) == "not Feedmill's")
    }

    @Test(.enabled(if: getuid() != 0 || InstalledTool.exists("setpriv"), "as root the test publishes through setpriv, not installed (Debian package util-linux)"))
    func publishingReadsADataDirectoryItCannotWrite() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        try FileManager.default.createDirectory(atPath: run.out, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: run.out)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: run.root.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: run.data)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: run.data) }
        // As root every directory is writable: publish as an unprivileged user instead.
        var user: (uid: UInt32, gid: UInt32)?
        if getuid() == 0 {
            user = (65534, 65534)
            // Its own output directory: one another user owns is refused (OwnershipTests).
            _ = chown(run.out, 65534, 65534)
        }
        let published = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out], as: user)
        #expect(published.status == 0, "\(published.stderr)")
        #expect(try PublishHarnessReader.manifest(run.out).feeds.count == 2)
    }

    // MARK: Nothing unsafe or malformed reaches clients

    @Test func unsafeLinksFromTheFeedListNeverReachTheCatalogOrThePages() throws {
        let server = try feedFarm(count: 1, items: 2, delay: 0)
        let harness = try Harness()
        let list = try harness.directory.write("list.opml", """
            <opml><body>
            <outline text="Evil site" xmlUrl="\(server.baseURL)/feed/0.xml" htmlUrl="javascript:alert(1)"/>
            <outline text="Evil feed" xmlUrl="javascript:alert(2)" htmlUrl="https://fine.example/"/>
            <outline text="Data feed" xmlUrl="data:text/xml,&lt;rss/&gt;"/>
            </body></opml>
            """)
        let feedList = try FeedList.load(list, configuration: harness.configuration.fetch)
        let report = try CreateRun(configuration: harness.configuration, catalog: harness.catalog).run(feedList: feedList, prune: false)
        #expect(report.importResult.rejected.count == 2)
        #expect(try harness.catalog.feeds().map(\.url) == [server.baseURL + "/feed/0.xml"])
        #expect(try harness.feed(1).state.siteLink != "javascript:alert(1)")
        // A catalog edited by hand is caught at the output as well.
        var feed = try harness.feed(1)
        feed.state.siteLink = "javascript:alert(3)"
        try harness.catalog.save(feed)
        let out = try TemporaryDirectory()
        var configuration = PublishConfiguration()
        configuration.outputDirectory = out.url.path
        _ = try PublishRun(harness: harness, configuration: configuration).run()
        for page in ["index.html", "atom.xml"] {
            let text = try String(contentsOfFile: out.url.path + "/" + page, encoding: .utf8)
            #expect(!text.lowercased().contains("javascript:"), "\(page)")
            #expect(!text.contains("data:text"), "\(page)")
        }
    }

    @Test(.enabled(if: InstalledTool.exists("/usr/bin/xmllint"), "xmllint is not installed (Debian package libxml2-utils)"))
    func forbiddenCharactersNeverTruncateATitleNorBreakAtomXML() throws {
        let json = #"{"version":"https://jsonfeed.org/version/1.1","title":"Feed\u0000 with\uFFFF odd\uFFFE chars\u0001","items":[{"id":"i\u0000d-1","url":"https://site.example/1","title":"Before\u0000after \uFFFF end","content_html":"<p>x\u0000y\uFFFFz</p>"}]}"#
        let server = try TestHTTPServer { _ in .init(contentType: "application/feed+json", body: json) }
        let harness = try Harness()
        try harness.add([server.baseURL + "/feed.json"])
        _ = try harness.update()
        let title = try sqlite(harness.databasePath(1), "SELECT title, summary FROM items")
        #expect(title == [["Beforeafter end", "<p>xyz</p>"]])
        #expect(try harness.feed(1).title == "Feed with odd chars")
        let out = try TemporaryDirectory()
        var configuration = PublishConfiguration()
        configuration.outputDirectory = out.url.path
        _ = try PublishRun(harness: harness, configuration: configuration).run()
        let lint = Process()
        lint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        lint.arguments = ["--noout", out.url.path + "/atom.xml"]
        lint.standardError = FileHandle.nullDevice
        try lint.run()
        lint.waitUntilExit()
        #expect(lint.terminationStatus == 0, "atom.xml is well-formed")
    }

    // MARK: The feed list

    @Test func aFeedListNestedTooDeeplyIsRefusedWholeNotImportedInPart() throws {
        let harness = try Harness()
        let depth = 10_000
        var text = "<opml><body>"
        for level in 0..<depth { text += "<outline text=\"L\(level)\" xmlUrl=\"https://deep.example/\(level)\">" }
        text += String(repeating: "</outline>", count: depth) + "</body></opml>"
        let list = try harness.directory.write("deep.opml", text)
        #expect {
            _ = try FeedList.load(list, configuration: harness.configuration.fetch)
        } throws: { error in
            "\(error)".contains("could not be read past line 1 (outlines nest deeper than 256 levels") && "\(error)".contains("nothing was imported")
        }
        #expect(try harness.catalog.feeds().isEmpty)
    }

    @Test func spellingsOfOneURLAreOneFeedAndTheURLIsKeptAsWritten() throws {
        let harness = try Harness()
        let result = try harness.catalog.importOutlines(
            [
                "http://Example.COM/feed", "http://example.com:80/feed", "http://example.com/feed#x", "http://example.com/f%65ed",
                "HTTP://example.com/feed", "https://example.com:443/a%2fb", "https://example.com/a%2Fb", "http://example.com",
                "http://example.com/", "http://example.com/Feed",
            ].map { CatalogOutline(url: $0) }, prune: false)
        #expect(try result.added.map { try harness.feed($0).url } == ["http://Example.COM/feed", "https://example.com:443/a%2fb", "http://example.com", "http://example.com/Feed"])
        #expect(result.duplicates.count == 6)
        let again = try harness.catalog.importOutlines([CatalogOutline(url: "http://EXAMPLE.com/feed")], prune: false)
        #expect(again.added.isEmpty && again.kept == 1)
    }
}

