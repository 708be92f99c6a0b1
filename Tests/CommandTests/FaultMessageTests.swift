import FeedBasics
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A failed I/O call is said with its file and its cause (issue 52): SQLite's own words, "disk
/// I/O error" or "unable to open database file", name only the symptom, and Foundation's
/// "The operation could not be completed. (NSCocoaErrorDomain error 512.)" names nothing.
@Suite("messages that name the failed call's cause", .serialized)
struct FaultMessageTests {
    func faulted(_ under: String, calls: String, errno number: Int32, persistent: Bool = false) throws -> [String: String] {
        ["LD_PRELOAD": try PublishFaultTests.shim.get(), "FEEDMILL_FAULT_UNDER": under, "FEEDMILL_FAULT_CALLS": calls,
            "FEEDMILL_FAULT_AT": "1", "FEEDMILL_FAULT_ERRNO": "\(number)", "FEEDMILL_FAULT_PERSIST": persistent ? "1" : "0"]
    }

    /// SQLite logs a failed sync with its errno; the message now carries it.
    @Test func aFailedSyncOfTheCatalogIsSaidWithItsErrno() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        let feeds = Executable(name: "rss-feeds")
        let added = try feeds.runCapturing(
            ["add", run.server.baseURL + "/new.xml", "--data-dir", run.data], environment: try faulted(run.data, calls: "sync", errno: EIO, persistent: true))
        #expect(added.status != 0)
        #expect(added.stderr.contains("all_feeds.sqlite") && added.stderr.contains("Input/output error"), "\(added.stderr)")
        let again = try feeds.runCapturing(["add", run.server.baseURL + "/new.xml", "--data-dir", run.data])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// A write SQLite does not log (only "disk I/O error") is said with its file and errno:
    /// the layer under SQLite's files (`errno_vfs.c`) records it.
    @Test(arguments: [EIO, ENOSPC])
    func aFailedWriteOfAFeedDatabaseIsSaidWithItsErrno(errno number: Int32) throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        let created = try run.create.runCapturing(
            ["--opml", run.server.baseURL + "/list.opml"] + run.options, environment: try faulted(run.data, calls: "write", errno: number, persistent: true))
        #expect(created.status != 0)
        let meaning = String(cString: strerror(number))
        let said = created.stderr.split(separator: "\n").first { $0.contains("write(" + run.data) && $0.contains(meaning) }
        #expect(said != nil, "\(created.stderr)")
        #expect(try run.createAll().status == 0)
    }

    /// SQLite retries a failed open read-only and logs the retry's errno (ENOENT for a -shm it
    /// may not create): the first attempt's errno is the one said.
    @Test(arguments: [EIO, ENOSPC])
    func aFailedOpenOfTheSharedMemoryFileIsSaidWithTheFirstErrno(errno number: Int32) throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        let feeds = Executable(name: "rss-feeds")
        let shm = run.data + "/all_feeds.sqlite-shm"
        let added = try feeds.runCapturing(
            ["add", run.server.baseURL + "/new.xml", "--data-dir", run.data], environment: try faulted(shm, calls: "open", errno: number))
        #expect(added.status != 0)
        #expect(added.stderr.contains("open(\(shm)): \(String(cString: strerror(number)))"), "\(added.stderr)")
        #expect(!added.stderr.contains("No such file or directory"), "\(added.stderr)")
        let again = try feeds.runCapturing(["add", run.server.baseURL + "/new.xml", "--data-dir", run.data])
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// A read-write open that fails once: SQLite falls back to read-only and later says only
    /// "attempt to write a readonly database" of a file this process may write; the message
    /// names the open that failed and its errno.
    @Test(arguments: [EIO, ENOSPC])
    func aDatabaseOpenedReadOnlyAfterAFailedOpenIsSaidWithThatOpensErrno(errno number: Int32) throws {
        let feeds = try FeedServer()
        let document = { (count: Int) in
            rss("Changing", items: (0..<count).map { ("c-\($0)", "Entry \($0)", "https://site.example/c/\($0)", "Tue, 21 Apr 2009 23:32:00 +0000") })
        }
        feeds.set("/feed.xml", document(1))
        feeds.set("/list.opml", "<opml version=\"2.0\"><body><outline text=\"C\" xmlUrl=\"\(feeds.url("/feed.xml"))\"/></body></opml>")
        let scratch = try TemporaryDirectory()
        let data = scratch.url.path + "/data"
        let options = ["--data-dir", data, "--allow-private-networks"]
        let create = Executable(name: "rss-create"), update = Executable(name: "rss-update")
        #expect(try create.runCapturing(["--opml", feeds.url("/list.opml")] + options).status == 0)
        feeds.set("/feed.xml", document(2))
        let path = data + "/feed_1.sqlite"
        let updated = try update.runCapturing(["--all", "--concurrency", "2"] + options, environment: try faulted(path, calls: "open", errno: number))
        #expect(updated.status != 0)
        #expect(updated.stderr.contains("open(\(path)): \(String(cString: strerror(number))), so SQLite opened it read-only"), "\(updated.stderr)")
        let again = try update.runCapturing(["--feed", "1"] + options)
        #expect(again.status == 0 && again.stdout.contains("1 updated"), "\(again.stdout) \(again.stderr)")
    }

    /// The same when the database is a new one, opened as the `.new` it is created as.
    @Test func aNewDatabaseOpenedReadOnlyIsSaidWithItsOpensErrno() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        let new = run.data + "/feed_1.sqlite.new"
        // Its first open makes the file; the second is SQLite's.
        var environment = try faulted(new, calls: "open", errno: EIO)
        environment["FEEDMILL_FAULT_AT"] = "2"
        let created = try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml"] + run.options, environment: environment)
        #expect(created.status != 0)
        #expect(created.stderr.contains("open(\(new)): Input/output error, so SQLite opened it read-only"), "\(created.stderr)")
        #expect(try run.createAll().status == 0)
    }

    /// rss-pull's folder that cannot be made, and a state file that cannot be written: the
    /// cause in words, and no Foundation temporary (`.dat.nosync…`) left behind.
    @Test(arguments: [EIO, ENOSPC])
    func theClientSaysWhyItCannotWriteAndLeavesNothing(errno number: Int32) throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out]).status == 0)
        let pull = Executable(name: "rss-pull")
        let meaning = String(cString: strerror(number))
        let parent = run.root.url.path + "/clients"
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let folder = parent + "/folder"
        let notMade = try pull.runCapturing(["file://" + run.out + "/", folder], environment: try faulted(parent, calls: "mkdir", errno: number))
        #expect(notMade.status == 70 && notMade.stderr.contains("cannot be created: \(meaning)"), "\(notMade.stderr)")
        #expect(!notMade.stderr.contains("NSCocoaErrorDomain"))

        let notWritten = try pull.runCapturing(["file://" + run.out + "/", folder], environment: try faulted(folder, calls: "write", errno: number, persistent: true))
        #expect(notWritten.status != 0 && notWritten.stderr.contains(meaning), "\(notWritten.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(left.allSatisfy { !$0.contains(".dat.nosync") && !$0.contains(".tmp.") }, "\(left)")
        let again = try pull.runCapturing(["file://" + run.out + "/", folder])
        #expect(again.status == 0, "\(again.stderr)")
    }
}
