import FeedBasics
import FeedPublishing
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-publish` with one I/O call failing, each in turn (issue 52), as SQLite's test harness
/// fails its own: `Scripts/faults/shim.c`, loaded with `LD_PRELOAD`, fails the N-th open,
/// write, sync, rename, unlink, link, truncate or mkdir under the output directory. After
/// each: the run ends by itself (no signal), the previous publication or the new one is whole
/// for clients, and the next plain run, without faults, gives what a run that met no fault
/// gives: the same record, the same pages, no temporary left.
@Suite("rss-publish with an I/O call failing", .serialized)
struct PublishFaultTests {
    static let now = ["--now", "1800000000"]

    /// The shim, built once per test process with the toolchain's C compiler.
    static var shim: Result<String, any Error> { FaultShim.library }

    /// What a publication is to a client and to the next run: the record's feeds and the pages.
    struct Outcome: Equatable {
        var feeds: [String]
        var atom: Data?
        var index: Data?
        /// The publisher's records and record pages: a record retired by a publication that
        /// stopped after its commit used to stay until some feed changed.
        var records: Int

        init(_ directory: String) throws {
            feeds = try PublicationReader.record(directory).feeds.map { "\($0.feedID) \($0.sha256)" }
            atom = FileManager.default.contents(atPath: directory + "/atom.xml")
            index = FileManager.default.contents(atPath: directory + "/index.html")
            records = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("publisher.") }.count
        }
    }

    private func copy(_ from: String, to: String) throws {
        try? FileManager.default.removeItem(atPath: to)
        // Nothing there yet (a first publication's output): nothing there again.
        guard FileManager.default.fileExists(atPath: from) else { return }
        let copied = try runToCompletion("/bin/cp", ["-a", from, to])
        #expect(copied.status == 0, "\(copied.stderr)")
    }

    private func leftovers(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") || $0.hasPrefix(".feedmill-scratch.") }
    }

    /// The errno, and whether every call from the chosen one on fails (a disk that stays full).
    static let faults: [(errno: Int32, persistent: Bool)] = [(EIO, false), (ENOSPC, false), (ENOSPC, true)]

    @Test(arguments: Self.faults)
    func everyFailedCallOfALaterPublicationLeavesItWholeAndTheNextRunConverges(fault: (errno: Int32, persistent: Bool)) throws {
        try sweep(first: false, fault: fault)
    }

    /// A first publication cut short after its record was written (an error that persists from
    /// its pointers on) left that record for good beside the one the next run commits: the
    /// next run now retires it as it retires a record a root named.
    @Test func aFirstPublicationCutShortLeavesNoSecondRecordAfterTheNextRun() throws {
        try sweep(first: true, fault: (EIO, true), from: 0.4)
    }

    /// Fails each call in turn (every one when there are few, evenly spread otherwise, from the
    /// `from` fraction of the run on), each followed by a plain run, against a run that met none.
    private func sweep(first: Bool, fault: (errno: Int32, persistent: Bool), from: Double = 0) throws {
        let failing = fault.errno
        let library = try Self.shim.get()
        let run = try BinaryRun(feeds: 4, items: 2)
        #expect(try run.createAll().status == 0)
        if !first {
            #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out] + Self.now).status == 0)
            for feed in 1...2 {
                try ChangedFeed(path: run.data + "/feed_\(feed).sqlite").upsert([entry("fault-\(feed)")], now: 5_000)
            }
        }
        // The state every point starts from, and what a run that meets no fault makes of it.
        let base = run.root.url.path
        try copy(run.data, to: base + "/data-before")
        try copy(run.out, to: base + "/out-before")
        let counted = base + "/calls"
        let clean = try run.publish.runCapturing(
            ["--data-dir", run.data, "--out", run.out] + Self.now,
            environment: ["LD_PRELOAD": library, "FEEDMILL_FAULT_UNDER": run.out, "FEEDMILL_FAULT_AT": "0", "FEEDMILL_FAULT_COUNT_TO": counted])
        #expect(clean.status == 0, "\(clean.stderr)")
        let expected = try Outcome(run.out)
        let calls = Int((try String(contentsOfFile: counted, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(calls > 20, "the shim saw the publication's calls (\(calls))")

        // Every point when there are few, evenly spread otherwise: a bounded sweep for CI.
        let start = max(1, Int(Double(calls) * from))
        let points = Array(stride(from: start, through: calls, by: max(1, (calls - start) / 60)))
        var failedRuns = 0
        for point in points {
            try copy(base + "/data-before", to: run.data)
            try copy(base + "/out-before", to: run.out)
            let process = try run.publish.start(
                ["--data-dir", run.data, "--out", run.out] + Self.now,
                environment: ["LD_PRELOAD": library, "FEEDMILL_FAULT_UNDER": run.out, "FEEDMILL_FAULT_AT": "\(point)",
                    "FEEDMILL_FAULT_ERRNO": "\(failing)", "FEEDMILL_FAULT_PERSIST": fault.persistent ? "1" : "0"],
                captureOutput: true)
            let output = Output(process)
            process.waitUntilExit()
            let faulted = (status: process.terminationStatus, stderr: output.stderr())
            #expect(process.terminationReason == .exit, "call \(point): ended by signal \(faulted.status): \(faulted.stderr)")
            if faulted.status != 0 {
                failedRuns += 1
                #expect(!faulted.stderr.isEmpty, "call \(point): a failed run says why")
            }
            // A first publication that failed before its root has nothing for clients yet.
            let whole = first && !FileManager.default.fileExists(atPath: run.out + "/manifest.json") ? [] : PublishInterruptionTests.problems(in: run.out)
            #expect(whole.isEmpty, "call \(point): after the failure, the publication clients read: \(whole)\n\(faulted.stderr)")

            let again = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out] + Self.now)
            #expect(again.status == 0, "call \(point): the next plain run completes by itself: \(again.stderr)\n(after: \(faulted.stderr))")
            let converged = PublishInterruptionTests.problems(in: run.out)
            #expect(converged.isEmpty, "call \(point): after the next run: \(converged)")
            let outcome = try? Outcome(run.out)
            #expect(outcome?.feeds == expected.feeds, "call \(point): the next run publishes what a run without faults does\n\(faulted.stderr)")
            #expect(outcome?.atom == expected.atom, "call \(point): atom.xml as without faults\n\(faulted.stderr)")
            #expect(outcome?.index == expected.index, "call \(point): index.html as without faults\n\(faulted.stderr)")
            #expect(outcome?.records == expected.records, "call \(point): no record left that a run without faults removes\n\(faulted.stderr)")
            let left = try leftovers(run.out)
            #expect(left.isEmpty, "call \(point): no temporary left: \(left)")
        }
        #expect(failedRuns > points.count / 2, "most points really failed the run (\(failedRuns) of \(points.count))")
    }
}
