import FeedPipeline
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

@Suite("Operator mistakes", .serialized)
struct OperatorMistakeTests {
    let feeds = Executable(name: "rss-feeds")

    @Test func aURLWrittenTwiceIntoTheCatalogByHandIsFetchedOnceAndReported() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        // The same feed under another spelling: the scheme's case and a fragment.
        let respelled = "HTTP://" + run.server.baseURL.dropFirst("http://".count) + "/feed/0.xml#top"
        try tamper(run.data + "/all_feeds.sqlite", "INSERT INTO feeds (feedid, url) VALUES (9, '\(respelled)')")
        let result = try run.updateAll()
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("#9") && result.stdout.contains("the same feed as feed 1") && result.stdout.contains("[duplicate]"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: run.data + "/feed_9.sqlite"), "not fetched twice")
        let listed = try feeds.runCapturing(["list", "--data-dir", run.data])
        #expect(listed.stdout.contains("failing ×1: duplicate"), "\(listed.stdout)")
        // Removed, the other keeps going.
        #expect(try feeds.runCapturing(["remove", "9", "--data-dir", run.data]).status == 0)
        #expect(try run.updateAll().status == 0)
    }

    @Test(arguments: [["--keep-items", "0"], ["--keep-items", "10000001"], ["--keep-days", "0"], ["--keep-days", "36501"]])
    func aFeedsOwnRetentionTakesOnlyWhatTheRunsOptionsTake(arguments: [String]) throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        let set = try feeds.runCapturing(["set", "1"] + arguments + ["--data-dir", run.data])
        #expect(set.status == 64, "\(set.stderr)")
        let runOption = try run.update.runCapturing(["--all"] + arguments + run.options)
        #expect(runOption.status == 64, "the run's option refuses it too: \(runOption.stderr)")
        #expect(try feeds.runCapturing(["set", "1", "--keep-items", "10000000", "--keep-days", "36500", "--data-dir", run.data]).status == 0)
    }

    /// `--deadline 9223372036854775807s` once died of SIGILL converting it to milliseconds.
    @Test(arguments: [
        (["--deadline", "9223372036854775807s"], [:], "deadline = '9223372036854775807s'"),
        (["--deadline", "3651d"], [:], "deadline = '3651d'"),
        (["--stale-after", "106751991167300d"], [:], "stale-after = '106751991167300d'"),
        ([], ["FEEDMILL_DEADLINE": "9223372036854775807s"], "(from environment FEEDMILL_DEADLINE)"),
        ([], ["FEEDMILL_STALE_AFTER": "9223372036854775807"], "(from environment FEEDMILL_STALE_AFTER)"),
    ] as [([String], [String: String], String)])
    func aDurationLongerThanTenYearsIsAUsageErrorNotASignal(arguments: [String], environment: [String: String], named: String) throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        let result = try run.update.runCapturing(["--all"] + arguments + run.options, environment: environment)
        #expect(result.status == 64, "exit 64, not a signal: \(result.stderr)")
        #expect(result.stderr.contains(named) && result.stderr.contains("at most 3650d"), "\(result.stderr)")
        let longest = try run.update.runCapturing(["--all", "--deadline", "3650d", "--stale-after", "315360000s"] + run.options)
        #expect(longest.status == 0, "ten years is still a duration: \(longest.stderr)")
    }

    /// `--timeout 1e300` passed the check for a positive number and would have meant no
    /// timeout at all: a fetch may take a day at most.
    @Test func aTimeoutLongerThanADayIsAUsageError() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        for (arguments, environment) in [(["--timeout", "1e300"], [:]), ([], ["FEEDMILL_TIMEOUT": "86401"])] as [([String], [String: String])] {
            let result = try run.update.runCapturing(["--all"] + arguments + run.options, environment: environment)
            #expect(result.status == 64 && result.stderr.contains("a positive number up to 86400"), "\(result.status): \(result.stderr)")
        }
        #expect(try run.update.runCapturing(["--all", "--timeout", "86400"] + run.options).status == 0)
    }

    @Test func rssFeedsRefusesAStaleAfterLongerThanTenYearsToo() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        let result = try feeds.runCapturing(["list", "--data-dir", run.data], environment: ["FEEDMILL_STALE_AFTER": "9223372036854775807s"])
        #expect(result.status == 64 && result.stderr.contains("at most 3650d"), "\(result.status): \(result.stderr)")
    }

    @Test func aDataDirectoryThatIsAFileIsNamedAsSuch() throws {
        let root = try TemporaryDirectory()
        let file = try root.write("data", "not a directory")
        let server = try feedFarm(count: 1, items: 1, delay: 0)
        // The directory named as input is not there as one (66); rss-create cannot create it (73).
        for (executable, arguments, status) in [
            (Executable(name: "rss-update"), ["--data-dir", file], Int32(66)),
            (Executable(name: "rss-create"), ["--data-dir", file, "--opml", server.baseURL + "/list.opml", "--allow-private-networks"], 73),
            (Executable(name: "rss-publish"), ["--data-dir", file, "--out", root.url.path + "/out"], 66),
            (Executable(name: "rss-feeds"), ["list", "--data-dir", file], 66),
        ] {
            let result = try executable.runCapturing(arguments)
            #expect(result.status == status, "\(executable.name): \(result.stderr)")
            #expect(result.stderr.contains("cannot use data directory \(file): it is a file, not a directory"), "\(executable.name): \(result.stderr)")
        }
    }

    @Test func anOutputDirectoryThatIsAFileIsNamedAsSuch() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        let file = try run.root.write("out", "not a directory")
        let result = try run.publishAll(into: file)
        #expect(result.status == 70 && result.stderr.contains("cannot use output directory \(file): it is a file, not a directory"), "\(result.stderr)")
    }

    @Test(.enabled(if: SmallFileSystem.available, "mounting a tmpfs needs root"))
    func aDataDirectoryOutOfInodesReadOnlyOrFullIsNamedSo() throws {
        let server = try feedFarm(count: 3, items: 2, delay: 0)
        let list = ["--opml", server.baseURL + "/list.opml", "--allow-private-networks"]
        // Room for the lock file and the catalog, not for the feed databases.
        if let inodes = SmallFileSystem(options: "size=4m,nr_inodes=5") {
            let result = try Executable(name: "rss-create").runCapturing(list + ["--data-dir", inodes.path + "/data"])
            #expect(result.status != 0)
            #expect((result.stdout + result.stderr).contains("no free inodes left"), "\(result.stdout) \(result.stderr)")
        }
        if let readOnly = SmallFileSystem(options: "size=4m") {
            let data = readOnly.path + "/data"
            #expect(try Executable(name: "rss-create").runCapturing(list + ["--data-dir", data]).status == 0)
            #expect(readOnly.remount("ro"))
            let result = try Executable(name: "rss-update").runCapturing(["--all", "--data-dir", data, "--allow-private-networks"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("mounted read-only"), "\(result.stderr)")
        }
        if let full = SmallFileSystem(options: "size=64k") {
            let result = try Executable(name: "rss-create").runCapturing(list + ["--data-dir", full.path + "/data"])
            #expect(result.status != 0)
            #expect((result.stdout + result.stderr).contains("is full"), "\(result.stdout) \(result.stderr)")
        }
    }
}
