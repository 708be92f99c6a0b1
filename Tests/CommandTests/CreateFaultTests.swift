import FeedBasics
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-create` with the removal of a file failing (issue 52): a new feed database is written
/// as `feed_<id>.sqlite.new`, linked to its name, and its temporary name removed. When that
/// removal failed, the run said nothing and the second name to the live database stayed for
/// good. Each removal of the run fails in turn, once and from then on (`Scripts/faults/shim.c`).
@Suite("rss-create with an I/O call failing", .serialized)
struct CreateFaultTests {
    @Test(arguments: [false, true])
    func aTemporaryNameThatCannotBeRemovedIsSaidAndNeverLeftLinkedToALiveDatabase(persistent: Bool) throws {
        let library = try PublishFaultTests.shim.get()
        let run = try BinaryRun(feeds: 4, items: 2)
        let counted = run.root.url.path + "/calls"
        let data = run.data
        func faulted(_ point: Int) throws -> (status: Int32, stdout: String, stderr: String) {
            try run.create.runCapturing(
                ["--opml", run.server.baseURL + "/list.opml"] + run.options,
                environment: ["LD_PRELOAD": library, "FEEDMILL_FAULT_UNDER": data, "FEEDMILL_FAULT_CALLS": "unlink",
                    "FEEDMILL_FAULT_AT": "\(point)", "FEEDMILL_FAULT_PERSIST": persistent ? "1" : "0", "FEEDMILL_FAULT_COUNT_TO": counted])
        }
        #expect(try faulted(0).status == 0)
        let calls = Int((try String(contentsOfFile: counted, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(calls >= 4, "a removal per new feed at least (\(calls))")
        var said = 0
        for point in 1...calls {
            try FileManager.default.removeItem(atPath: data)
            let created = try faulted(point)
            if created.stderr.contains("cannot remove this temporary name") {
                said += 1
                #expect(created.stderr.contains("Input/output error"), "call \(point): the cause is said: \(created.stderr)")
            }
            // No second name of a live database, at any moment after the run.
            for name in try FileManager.default.contentsOfDirectory(atPath: data) where name.hasSuffix(".sqlite.new") {
                var left = stat(), live = stat()
                let linked = lstat(data + "/" + name, &left) == 0 && lstat(data + "/" + String(name.dropLast(4)), &live) == 0
                    && left.st_ino == live.st_ino
                #expect(!linked || persistent, "call \(point): \(name) is still a name of the live database")
            }
            // The same command again, then the nightly update: every feed in place, nothing else.
            let again = try run.createAll()
            #expect(again.status == 0, "call \(point): \(again.stderr)")
            let updated = try run.updateAll()
            #expect(updated.status == 0, "call \(point): \(updated.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: data).filter { !$0.hasPrefix(".") }.sorted()
            #expect(names == ["all_feeds.sqlite", "feed_1.sqlite", "feed_2.sqlite", "feed_3.sqlite", "feed_4.sqlite"], "call \(point): \(names)")
            for feed in 1...4 {
                #expect(try run.itemCount(feed) == 2, "call \(point): feed \(feed) has its own items")
            }
        }
        #expect(said >= 4, "the failed removals were said (\(said) of \(calls))")
    }

    /// Every kind of call, each in turn (evenly sampled), failed once with EIO or ENOSPC: the
    /// next plain `rss-create`, with no update after it, leaves what a run without faults
    /// leaves: every feed titled with its items. A feed whose first fetch failed on this
    /// machine's own storage used to wait out a 15-minute backoff, untitled, while the rerun
    /// said nothing.
    @Test(arguments: [EIO, ENOSPC])
    func aRunThatMetAnIOErrorIsFinishedByThePlainRerun(failing: Int32) throws {
        let library = try PublishFaultTests.shim.get()
        let run = try BinaryRun(feeds: 4, items: 2)
        let counted = run.root.url.path + "/calls"
        let data = run.data
        func faulted(_ point: Int) throws -> (status: Int32, stdout: String, stderr: String) {
            try run.create.runCapturing(
                ["--opml", run.server.baseURL + "/list.opml"] + run.options,
                environment: ["LD_PRELOAD": library, "FEEDMILL_FAULT_UNDER": data, "FEEDMILL_FAULT_AT": "\(point)",
                    "FEEDMILL_FAULT_ERRNO": "\(failing)", "FEEDMILL_FAULT_COUNT_TO": counted])
        }
        #expect(try faulted(0).status == 0)
        let calls = Int((try String(contentsOfFile: counted, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(calls > 50, "the shim saw the run's calls (\(calls))")
        var failedRuns = 0
        for point in stride(from: 1, through: calls, by: max(1, calls / 40)) {
            try FileManager.default.removeItem(atPath: data)
            let created = try faulted(point)
            if created.status != 0 {
                failedRuns += 1
                #expect(!created.stderr.isEmpty, "call \(point): a failed run says why")
            }
            let again = try run.createAll()
            #expect(again.status == 0, "call \(point): the plain rerun completes: \(again.stderr)\n(after: \(created.stderr))")
            let names = try FileManager.default.contentsOfDirectory(atPath: data).filter { !$0.hasPrefix(".") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
            #expect(names.sorted() == ["all_feeds.sqlite", "feed_1.sqlite", "feed_2.sqlite", "feed_3.sqlite", "feed_4.sqlite"], "call \(point): \(names.sorted())")
            let titled = try DatabaseQueue(path: data + "/all_feeds.sqlite").read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM about WHERE title IS NOT NULL AND title <> ''") ?? 0
            }
            #expect(titled == 4, "call \(point): every feed titled after the rerun (\(titled) of 4)\n(after: \(created.stderr))")
            for feed in 1...4 {
                #expect((try? run.itemCount(feed)) == 2, "call \(point): feed \(feed) has its items")
            }
        }
        #expect(failedRuns > 0, "some points really failed the run")
    }
}

/// `rss-feeds remove` whose unlink of the feed's database fails: the feed stays listed, so the
/// same command run again removes both (it used to remove the catalog's rows first, and the
/// database of a feed no longer listed stayed for good).
@Suite("rss-feeds remove with its unlink failing", .serialized)
struct FeedsRemoveFaultTests {
    @Test(arguments: [EIO, ENOSPC])
    func aRemovalWhoseUnlinkFailedIsFinishedByTheSameCommandRunAgain(errno number: Int32) throws {
        let run = try BinaryRun(feeds: 2, items: 1)
        #expect(try run.createAll().status == 0)
        let feeds = Executable(name: "rss-feeds")
        let path = run.data + "/feed_2.sqlite"
        let environment = ["LD_PRELOAD": try PublishFaultTests.shim.get(), "FEEDMILL_FAULT_UNDER": path, "FEEDMILL_FAULT_CALLS": "unlink",
            "FEEDMILL_FAULT_AT": "1", "FEEDMILL_FAULT_ERRNO": "\(number)", "FEEDMILL_FAULT_PERSIST": "0"]
        let failed = try feeds.runCapturing(["remove", "2", "--data-dir", run.data], environment: environment)
        #expect(failed.status != 0)
        #expect(failed.stderr.contains(path) && failed.stderr.contains(String(cString: strerror(number))), "\(failed.stderr)")
        #expect(FileManager.default.fileExists(atPath: path))
        let listed = try feeds.runCapturing(["list", "--data-dir", run.data])
        #expect(listed.stdout.contains("/feed/1.xml"), "feed 2 is still listed: \(listed.stdout)")
        let again = try feeds.runCapturing(["remove", "2", "--data-dir", run.data])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "the database is gone")
        #expect(!(try feeds.runCapturing(["list", "--data-dir", run.data]).stdout.contains("/feed/1.xml")))
    }
}
