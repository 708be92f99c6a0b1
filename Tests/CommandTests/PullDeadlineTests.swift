import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-pull --deadline` and Ctrl-C (issue 54): a sync over a deliberately slow server stops at
/// its deadline (or at SIGINT within a second), keeps every file it finished, leaves no
/// temporary and no half-applied file, says what is left; the next plain run finishes the rest
/// without downloading again what was finished.
@Suite("rss-pull: deadline and interrupt", .serialized)
struct PullDeadlineTests {
    typealias Setting = HostileServerPullTests.Setting

    /// The snapshots of feeds 2 and 3 come a byte every 50 ms (a few seconds each at least);
    /// the rest at once.
    static func slowFeeds(_ setting: Setting) {
        setting.server.misbehave { path in
            (path.hasPrefix("/feed_2.") || path.hasPrefix("/feed_3.")) && path.hasSuffix(".sqlite") ? .drip(interval: 0.05) : nil
        }
    }

    static func pull(_ setting: Setting, _ extra: [String]) throws -> (status: Int32, stdout: String, stderr: String, seconds: Double) {
        let started = ContinuousClock.now
        let result = try Executable(name: "rss-pull").runCapturing([setting.server.baseURL, setting.folder, "--timeout", "60", "--json"] + extra)
        return (result.status, result.stdout, result.stderr, (ContinuousClock.now - started).inSecondsForTest)
    }

    static func report(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Names in the folder that are not a database or the client's state: temporaries.
    static func strays(_ setting: Setting) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: setting.folder)) ?? []).filter {
            !$0.hasSuffix(".sqlite") && $0 != ".feedmill-client.json" && $0 != ".feedmill-client.lock"
        }
    }

    @Test func aDeadlineStopsTheSyncKeepsWhatWasFinishedAndTheNextRunDownloadsOnlyTheRest() throws {
        let setting = try Setting()
        Self.slowFeeds(setting)
        let first = try Self.pull(setting, ["--deadline", "4s"])
        #expect(first.status == 124, "\(first.stderr)")
        #expect(first.seconds < 12, "stopped at the deadline, not at the end of the slow download (\(first.seconds) s)")
        let stopped = try Self.report(first.stdout)
        #expect(stopped["outcome"] as? String == "deadline")
        let left = try #require(stopped["left"] as? [String])
        // Feed 1 comes at once, so it is done unless the machine is very loaded; feeds 2 and 3
        // drip for minutes.
        #expect(left.suffix(2) == ["feed_2.sqlite", "feed_3.sqlite"], "\(stopped)")
        #expect(first.stderr.contains("left for the next run: " + left.joined(separator: " ")), "\(first.stderr)")
        #expect(Self.strays(setting).isEmpty, "no temporary left: \(Self.strays(setting))")
        let finishedFirst = (stopped["full_downloads"] as? [String]) ?? []
        for name in finishedFirst {
            #expect(try sqlite(setting.folder + "/" + name, "PRAGMA integrity_check") == [["ok"]])
        }
        #expect(!FileManager.default.fileExists(atPath: setting.folder + "/feed_2.sqlite"))

        setting.server.behave()
        let before = setting.server.requests.count
        let second = try Self.pull(setting, [])
        #expect(second.status == 0, "\(second.stderr)")
        let finished = try Self.report(second.stdout)
        #expect(finished["full_downloads"] as? [String] == left, "only what was left: \(finished)")
        let fetched = setting.server.requests.dropFirst(before)
        for name in finishedFirst {
            let stem = String(name.dropLast(".sqlite".count)) + "."
            #expect(!fetched.contains { $0.hasPrefix("/" + stem) && $0.hasSuffix(".sqlite") }, "\(name) not downloaded again: \(Array(fetched))")
        }
        let third = try Self.pull(setting, [])
        #expect(try Self.report(third.stdout)["outcome"] as? String == "up-to-date")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalMidSyncStopsWithinASecondLeavesNoStrayFileAndTheNextRunCompletes(_ number: Int32) throws {
        let setting = try Setting()
        Self.slowFeeds(setting)
        let process = try Executable(name: "rss-pull").start([setting.server.baseURL, setting.folder, "--timeout", "60"], captureOutput: true)
        let output = Output(process)
        // Wait until the slow download is under way.
        let waitedFor = ContinuousClock.now
        while !setting.server.requests.contains(where: { $0.hasPrefix("/feed_2.") && $0.hasSuffix(".sqlite") }), ContinuousClock.now - waitedFor < .seconds(20) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.3)
        let signalled = ContinuousClock.now
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        let took = (ContinuousClock.now - signalled).inSecondsForTest
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + number, "\(output.stderr())")
        // Well before the drip's minutes (how soon: Scripts/bench/run pull-cancel).
        #expect(took < 10, "stopped \(took) s after the signal")
        #expect(output.stdout().contains("cancelled"), "\(output.stdout())")
        #expect(Self.strays(setting).isEmpty, "no temporary left: \(Self.strays(setting))")

        setting.server.behave()
        let next = try Self.pull(setting, [])
        #expect(next.status == 0, "\(next.stderr)")
        #expect((try Self.report(next.stdout)["full_downloads"] as? [String])?.suffix(2) == ["feed_2.sqlite", "feed_3.sqlite"])
        for feed in 1...3 {
            #expect(try sqlite(setting.folder + "/feed_\(feed).sqlite", "PRAGMA integrity_check") == [["ok"]])
        }
    }

    @Test func everyPeriodSyncsAgainQuietlyWhenNothingChangedAndStopsAtSIGTERMWithZero() throws {
        let setting = try Setting()
        let output = setting.scratch.url.path + "/every.log"
        FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = Executable(name: "rss-pull").url
        process.arguments = [setting.server.baseURL, setting.folder, "--every", "1s", "--mark", "1:read:item-x"]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": setting.home, "FEEDMILL_CONFIG": "none"]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        func text() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        func manifestReads() -> Int { setting.server.requests.filter { $0 == "/manifest.json" }.count }
        let started = ContinuousClock.now
        while manifestReads() < 4, ContinuousClock.now - started < .seconds(30) { Thread.sleep(forTimeInterval: 0.1) }
        #expect(manifestReads() >= 4, "a sync about every second")
        // The first sync downloaded; the later ones changed nothing and printed nothing.
        #expect(text().components(separatedBy: "\n").filter { !$0.isEmpty }.count == 1, "\(text())")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text())")
        // --mark is kept in --every's mode too (sent when a --token-file is given).
        #expect(try sqlite(setting.folder + "/.feedmill-reading-state.sqlite", "SELECT feedid, id, read FROM marks") == [["1", "item-x", "1"]])
    }

    /// On a terminal (a pseudo-terminal from util-linux's `script`), a bar redrawn on one line
    /// and erased at the end; through a pipe, none.
    @Test func aProgressBarOnATerminalOnly() throws {
        let setting = try Setting()
        Self.slowFeeds(setting)
        let command = [Executable(name: "rss-pull").url.path, setting.server.baseURL, setting.folder, "--deadline", "3s"].joined(separator: " ")
        let onTerminal = try runToCompletion("/usr/bin/script", ["-qfec", command, "/dev/null"])
        #expect(onTerminal.status == 124, "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("\r\u{1B}[K"), "redrawn and erased: \(onTerminal.stdout.debugDescription)")
        #expect(onTerminal.stdout.contains("/3 feeds, "), "\(onTerminal.stdout.debugDescription)")
        let piped = try Executable(name: "rss-pull").runCapturing([setting.server.baseURL, setting.folder, "--deadline", "1s"])
        #expect(!piped.stderr.contains("\u{1B}[K") && !piped.stderr.contains("/3 feeds"), "\(piped.stderr)")
    }

    @Test func aDeadlineTooSmallOrNotADurationIsAUsageError() throws {
        for bad in ["0", "-1s", "soon", "2y", "400d"] {
            let result = try Executable(name: "rss-pull").runCapturing(["http://127.0.0.1:9/", "/tmp/nowhere", "--deadline", bad])
            #expect(result.status == 64, "\(bad): \(result.stderr)")
        }
    }
}

extension Duration {
    var inSecondsForTest: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
