import Foundation
import PipelineTestSupport
import TestSupport
import Testing

@Suite("Whole runs as processes", .serialized)
struct ProcessTests {
    let create = Executable(name: "rss-create")
    let update = Executable(name: "rss-update")

    @Test func aSecondRunExitsAtOnceAndNothingIsCorrupted() throws {
        let server = try feedFarm(count: 4, items: 3, delay: 0.5)
        let directory = try TemporaryDirectory()
        let data = ["--data-dir", directory.url.path, "--allow-private-networks", "--concurrency", "1"]
        #expect(try create.run(["--opml", server.baseURL + "/list.opml"] + data).status == 0)
        let first = try update.start(["--all"] + data)
        // Not a sleep: on a busy machine the second process could still win the lock.
        try #require(
            Self.waitUntilTheLock(in: directory.url.path, names: first.processIdentifier),
            "the first run took the lock within 30 s")
        let started = ContinuousClock.now
        let second = try update.run(["--all"] + data)
        #expect(second.status == 75)
        #expect(second.stderr.contains("another Feedmill run (pid \(first.processIdentifier))"))
        #expect(ContinuousClock.now - started < .seconds(1), "it does not wait")
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) where file.hasSuffix(".sqlite") {
            #expect(try sqlite(directory.url.path + "/" + file, "PRAGMA integrity_check") == [["ok"]])
        }
    }

    /// Polls `<data>/.feedmill.lock` until it holds `pid`: a run writes its pid there once it
    /// holds the lock (RunLock), and holds it from then on until it ends.
    static func waitUntilTheLock(in directory: String, names pid: Int32, timeout: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: directory + "/.feedmill.lock"),
                String(decoding: data, as: UTF8.self) == "\(pid)\n"
            {
                return true
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return false
    }

    @Test func runsKilledAtRandomPointsThenCompletedEndLikeAnUninterruptedRun() throws {
        let server = try feedFarm(count: 24, items: 15, delay: 0.03)
        let list = ["--opml", server.baseURL + "/list.opml"]
        let reference = try TemporaryDirectory()
        let referenceOptions = ["--data-dir", reference.url.path, "--allow-private-networks", "--concurrency", "4"]
        #expect(try create.run(list + referenceOptions).status == 0)

        let interrupted = try TemporaryDirectory()
        let options = ["--data-dir", interrupted.url.path, "--allow-private-networks", "--concurrency", "4"]
        var generator = SeededGenerator.announced()
        var killed = 0
        for round in 0..<8 {
            // Alternate the create step and forced updates, each killed somewhere in the middle.
            let process = try round % 2 == 0 ? create.start(list + options) : update.start(["--all"] + options)
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.4, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 }
        }
        #expect(killed >= 4, "most rounds were really interrupted (\(killed) of 8)")
        #expect(try create.run(list + options).status == 0)
        #expect(try update.run(["--all"] + options).status == 0)

        let query = "SELECT id, title, summary, permalink, pubdate_unix_time FROM items ORDER BY id"
        let catalogQuery = "SELECT feedid, url, title FROM feeds JOIN about USING (feedid) ORDER BY feedid"
        #expect(try sqlite(interrupted.url.path + "/all_feeds.sqlite", catalogQuery) == sqlite(reference.url.path + "/all_feeds.sqlite", catalogQuery))
        for feed in 1...24 {
            let name = "/feed_\(feed).sqlite"
            let got = try sqlite(interrupted.url.path + name, query)
            #expect(got.count == 15)
            #expect(got == (try sqlite(reference.url.path + name, query)), "feed \(feed)")
            #expect(try sqlite(interrupted.url.path + name, "PRAGMA integrity_check") == [["ok"]])
        }
        #expect(try sqlite(interrupted.url.path + "/all_feeds.sqlite", "PRAGMA integrity_check") == [["ok"]])
    }
}
