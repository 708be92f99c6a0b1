import FeedBasics
import FeedObjectStorage
import FeedPublishing
@testable import FeedPublishingObjectStorage
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-publish --out s3://bucket/prefix` run as an operator runs it, against SeaweedFS on
/// 127.0.0.1, with the settings in the AWS variables.
@Suite("rss-publish --out s3://", .serialized)
struct PublishToBucketTests {
    private func publish(_ run: BinaryRun, _ environment: [String: String], out: String = "s3://feedmill-test/site") throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try run.publish.runCapturing(["--data-dir", run.data, "--out", out], environment: environment)
    }

    private func changeEveryFeed(_ run: BinaryRun, count: Int, tag: String, now: Int64) throws {
        for feed in 1...count {
            try ChangedFeed(path: run.data + "/feed_\(feed).sqlite").upsert([entry("\(tag)-\(feed)")], now: now)
        }
    }

    @Test("publishes; bad settings exit with their status and words, and change nothing", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func publishesAndRefuses() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let run = try BinaryRun(feeds: 5)
        #expect(try run.createAll().status == 0)
        let environment = awsEnvironment(server)
        let first = try publish(run, environment)
        #expect(first.status == 0, "\(first.stderr)")
        let check = try BucketCheck(server)
        let problemsTrue = try check.problems(complete: true)
        #expect(problemsTrue.isEmpty, "\(problemsTrue)")
        #expect(try check.generation() == 1)
        let before = try bystander(server).list()

        let wrong = try publish(run, awsEnvironment(server, secret: "not-the-secret"))
        #expect(wrong.status == 77, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("s3://feedmill-test/site") && wrong.stderr.contains("AWS_SECRET_ACCESS_KEY"))
        #expect(!wrong.stderr.contains("not-the-secret"))
        let missing = try publish(run, environment, out: "s3://no-such-bucket/site")
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("\"no-such-bucket\"") && missing.stderr.contains(server.endpoint))
        let refused = try publish(run, awsEnvironment(server, endpoint: "http://127.0.0.1:9"))
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(refused.stderr.contains("http://127.0.0.1:9") && refused.stderr.contains("AWS_ENDPOINT_URL"))
        var noCredentials = environment
        noCredentials["AWS_ACCESS_KEY_ID"] = ""
        let unset = try publish(run, noCredentials)
        #expect(unset.status == 77 && unset.stderr.contains("AWS_ACCESS_KEY_ID"), "\(unset.stderr)")
        let badOut = try publish(run, environment, out: "s3://B/site")
        #expect(badOut.status != 0 && badOut.stderr.contains("bucket name"), "\(badOut.stderr)")
        #expect(try bystander(server).list() == before, "the refused runs wrote nothing")

        let again = try publish(run, environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try check.generation() == 1, "nothing changed: nothing committed")
    }

    @Test("two publishers started together: exactly one commits, the other exits non-zero; the root names only objects that exist", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func twoPublishers() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let relay = try S3RequestRelay(upstream: server.endpoint)
        defer { relay.stop() }
        // A slow link: each publication lasts long enough for the two to meet.
        relay.delayEachRequest(by: 0.02)
        let run = try BinaryRun(feeds: 8)
        #expect(try run.createAll().status == 0)
        let environment = awsEnvironment(server, endpoint: relay.endpoint)
        let processes = try (0..<2).map { _ in
            try run.publish.start(["--data-dir", run.data, "--out", "s3://feedmill-test/site"], environment: environment, captureOutput: true)
        }
        let outputs = processes.map { Output($0) }
        processes.forEach { $0.waitUntilExit() }
        let statuses = processes.map(\.terminationStatus)
        #expect(statuses.sorted() == [0, 75], "\(statuses): \(outputs.map { $0.stderr() })")
        let loser = outputs[statuses[0] == 0 ? 1 : 0].stderr()
        #expect(loser.contains("is using s3://feedmill-test/site/.feedmill-lock.1of1.json") || loser.contains("the root changed"), "\(loser)")
        let check = try BucketCheck(server)
        #expect(try check.generation() == 1, "exactly one commit")
        let problemsTrue = try check.problems(complete: true)
        #expect(problemsTrue.isEmpty, "\(problemsTrue)")
        let roots = relay.exchanges.filter { $0.method == "PUT" && $0.path.hasSuffix("/manifest.json") && $0.status == 200 }
        #expect(roots.count == 1)
    }

    @Test("killed with SIGKILL at random points of an upload, then run again: a valid root, no missing object, nothing complete uploaded again", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func killedAndResumed() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let relay = try S3RequestRelay(upstream: server.endpoint)
        defer { relay.stop() }
        relay.delayEachRequest(by: 0.01)
        let feeds = 15
        let run = try BinaryRun(feeds: feeds)
        #expect(try run.createAll().status == 0)
        let environment = awsEnvironment(server, endpoint: relay.endpoint)
        let check = try BucketCheck(server)
        let started = ContinuousClock.now
        #expect(try publish(run, environment).status == 0)
        let whole = max(0.1, (ContinuousClock.now - started) / .seconds(1))
        var generator = SeededGenerator.announced()
        var killed = 0
        var reuploads: [String] = []
        for round in 1...6 {
            try changeEveryFeed(run, count: feeds, tag: "kill-\(round)", now: 5_000 + Int64(round))
            let generation = try check.generation()
            relay.clear()
            let process = try run.publish.start(["--data-dir", run.data, "--out", "s3://feedmill-test/site"], environment: environment)
            Thread.sleep(forTimeInterval: Double.random(in: 0...whole, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 }
            let killedRun = relay.exchanges
            let problemsFalse = try check.problems(complete: false)
            #expect(problemsFalse.isEmpty, "round \(round): \(problemsFalse)")
            let afterKill = try check.generation()
            #expect(afterKill == generation || afterKill == generation + 1, "round \(round)")

            relay.clear()
            let rerun = try publish(run, environment)
            #expect(rerun.status == 0, "round \(round): \(rerun.stderr)")
            let problemsTrue = try check.problems(complete: true)
            #expect(problemsTrue.isEmpty, "round \(round): \(problemsTrue)")
            #expect(try check.generation() == generation + 1, "round \(round): this round's data is published once")
            for feed in 1...feeds {
                let items = try check.takenItemIDs(feed: Int64(feed))
                #expect(items.contains("kill-\(round)-\(feed)"), "round \(round): feed \(feed)'s usable entry carries this round's rows: \(items)")
            }
            // Immutable objects the killed run had uploaded whole (answered 200) that the rerun
            // uploaded again, told by their bytes' checksum.
            let complete = Set(killedRun.filter { $0.method == "PUT" && $0.status == 200 && Self.isImmutable($0.path) }.compactMap(\.checksum))
            reuploads += relay.exchanges.filter { $0.method == "PUT" && $0.status == 200 && Self.isImmutable($0.path) }
                .filter { $0.checksum.map(complete.contains) ?? false }.map { "round \(round): \($0.path)" }
        }
        #expect(killed >= 3, "most rounds were really interrupted (\(killed) of 6)")
        #expect(reuploads.isEmpty, "names are content-addressed: what the killed run uploaded whole is not uploaded again: \(reuploads)")
    }

    @Test("three generations, and the reference client syncing over HTTP from the bucket gets the published digests", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func threeGenerationsAndTheClient() throws {
        let server = try S3TestServer.start(anonymousRead: true)
        defer { server.stop() }
        let feeds = 4
        let run = try BinaryRun(feeds: feeds)
        #expect(try run.createAll().status == 0)
        let environment = awsEnvironment(server)
        let check = try BucketCheck(server)
        let client = try TemporaryDirectory()
        let pull = Executable(name: "rss-pull")
        for generation in 1...3 {
            if generation > 1 { try changeEveryFeed(run, count: generation, tag: "generation-\(generation)", now: 9_000 + Int64(generation)) }
            let published = try publish(run, environment)
            #expect(published.status == 0, "\(published.stderr)")
            #expect(try check.generation() == generation)
            let problemsTrue = try check.problems(complete: true)
            #expect(problemsTrue.isEmpty, "\(problemsTrue)")

            let synced = try pull.runCapturing([server.publicBaseURL + "site/", client.url.path, "--json"])
            #expect(synced.status == 0, "generation \(generation): \(synced.stderr)")
            let local = try FileManager.default.contentsOfDirectory(atPath: client.url.path).filter { $0.hasSuffix(".sqlite") }
            let publishedFeeds = try bystander(server).list(prefix: "site/feed_").map(\.key).filter {
                $0.hasSuffix(".sqlite") && $0.split(separator: ".").count == 2
            }
            #expect(Set(local) == Set(publishedFeeds.map { String($0.dropFirst("site/".count)) } + ["all_feeds.sqlite"]), "generation \(generation)")
            let scratch = try TemporaryDirectory()
            for name in local {
                let copy = scratch.url.path + "/" + name
                FileManager.default.createFile(atPath: copy, contents: Data(try #require(try check.object(name))))
                let catalog = name == "all_feeds.sqlite"
                #expect(
                    try IndependentDigest.of(client.url.path + "/" + name, catalog: catalog) == IndependentDigest.of(copy, catalog: catalog),
                    "generation \(generation): \(name)")
            }
        }
    }

    /// A name whose bytes never change: content-addressed, or format 1's versioned names.
    static func isImmutable(_ path: String) -> Bool {
        let name = String(path.split(separator: "?").first?.split(separator: "/").last ?? "")
        return PublishedHeaders.isImmutable(name) && !name.hasPrefix(".feedmill-")
    }
}
