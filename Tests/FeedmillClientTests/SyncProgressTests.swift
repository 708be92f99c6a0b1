import FeedmillClient
import Foundation
import Testing
import TestSupport

/// A sync's progress stream and cancel, as an app's UI uses them (issue 54).
struct SyncProgressTests {
    static func sync(_ fixture: ClientFixture) -> PublicationSync {
        PublicationSync(baseURL: fixture.base, folder: fixture.folder, catalog: .published)
    }

    @Test func progressCountsEveryFollowedFeedAndTheBytesAndEndsWithTheSync() async throws {
        let fixture = try ClientFixture(feeds: 3)
        try fixture.publish()
        let run = Self.sync(fixture).start()
        var steps: [SyncProgress] = []
        for await step in run.progress { steps.append(step) }
        let report = try await run.report
        #expect(report.problems.isEmpty && report.fullDownloads.count == 4)
        let last = try #require(steps.last)
        #expect(last.filesTotal == 3 && last.filesDone == 3, "\(steps)")
        #expect(last.bytesReceived == report.bytesDownloaded)
        #expect(last.fraction == 1)
        // Never backwards.
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.filesDone <= $1.filesDone && $0.bytesReceived <= $1.bytesReceived })
    }

    @Test func cancelStopsWithinASecondReportsWhatIsLeftAndTheNextSyncFinishesIt() async throws {
        let fixture = try ClientFixture(feeds: 3)
        try fixture.publish()
        // Every snapshot of feeds 2 and 3 waits 120 s before its answer.
        fixture.server.respond { path, _ in
            if (path.hasPrefix("/feed_2.") || path.hasPrefix("/feed_3.")) && path.hasSuffix(".sqlite") { Thread.sleep(forTimeInterval: 120) }
            return nil
        }
        let run = Self.sync(fixture).start()
        var cancelledAt: ContinuousClock.Instant?
        for await step in run.progress where step.filesDone >= 1 && cancelledAt == nil {
            cancelledAt = .now
            run.cancel()
        }
        let report = try await run.report
        let took = ContinuousClock.now - (cancelledAt ?? .now)
        // Long before the server's 120 s. How soon is measured by Scripts/bench/run pull-stop,
        // not here: with the whole suite running, this task may wait many seconds for a thread.
        #expect(took < .seconds(100), "stopped \(took) after cancel")
        #expect(report.outcome == .cancelled)
        #expect(report.left.suffix(2) == ["feed_2.sqlite", "feed_3.sqlite"], "\(report)")
        #expect(report.problems.isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)
        #expect(!names.contains { $0.contains(".tmp.") }, "\(names)")

        fixture.server.respond(with: nil)
        let next = try await fixture.sync()
        #expect(next.fullDownloads == report.left, "\(next)")
        #expect(next.problems.isEmpty)
    }

    @Test func aDeadlineThatPassesBeforeTheEndSaysDeadline() async throws {
        let fixture = try ClientFixture(feeds: 3)
        try fixture.publish()
        fixture.server.respond { path, _ in
            if path.hasPrefix("/feed_3.") && path.hasSuffix(".sqlite") { Thread.sleep(forTimeInterval: 120) }
            return nil
        }
        let report = try await Self.sync(fixture).run(deadline: .seconds(5), progress: nil)
        #expect(report.outcome == .deadline)
        // How far it got depends on the machine's load; what it left is what the next sync
        // downloads, and nothing else.
        #expect(report.left.last == "feed_3.sqlite", "\(report)")
        #expect(report.summary.contains("stopped at the deadline"))
        // A deadline that does not pass changes nothing.
        fixture.server.respond(with: nil)
        let finished = try await Self.sync(fixture).run(deadline: .seconds(600), progress: nil)
        #expect(finished.outcome == .synced && finished.fullDownloads == report.left, "\(finished)")
    }
}
