import FeedBasics
import FeedModel
import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Durability is paid once per publication (files written unflushed, made durable together,
/// then the manifest): a `kill -9` at any point still leaves the previous publication or the
/// new one, whole, and the next run completes it.
@Suite("rss-publish killed at random points", .serialized)
struct PublishInterruptionTests {
    /// Problems of the publication in `directory`: as a client reads it (the root, every
    /// pointer's usable entry, PublicationReader), and as the publisher does: the record the
    /// root names, and every file it names (snapshot, earlier version, delta, the pointer's
    /// previous entry, catalog) missing or not the bytes it says.
    static func problems(in directory: String) -> [String] {
        let manifest: Manifest
        do {
            manifest = try PublicationReader.record(directory)
        } catch {
            return ["unreadable root or record: \(error)"]
        }
        var named: [(String, String)] = []
        for feed in manifest.feeds {
            named.append((feed.file, feed.sha256))
            named += feed.history.map { ($0.file, $0.sha256) } + feed.deltas.map { ($0.file, $0.sha256) }
            if let previous = feed.previousEntry {
                named.append((previous.file, previous.sha256))
                named += previous.deltas.map { ($0.file, $0.sha256) }
            }
        }
        if let catalog = manifest.catalog { named.append((catalog.file, catalog.sha256)) }
        // The record's pages (read above: a missing one fails the read) and the catalog's
        // page groups, pages, title groups and runs the root's index names (issue 51).
        named += (manifest.feedPages ?? []).map { ($0.file, $0.sha256) }
        if let index = (try? PublicationReader.root(directory))?.catalogIndex {
            named.append((index.file, index.sha256))
            if let data = FileManager.default.contents(atPath: directory + "/" + index.file),
                let document = try? JSONDecoder().decode(CatalogIndexDocument.self, from: data)
            {
                named += document.pageGroups.map { ($0.file, $0.sha256) } + document.titleGroups.map { ($0.file, $0.sha256) }
                func read<Document: Decodable>(_ file: String, as: Document.Type) -> Document? {
                    FileManager.default.contents(atPath: directory + "/" + file).flatMap { try? JSONDecoder().decode(Document.self, from: $0) }
                }
                for group in document.pageGroups {
                    named += (read(group.file, as: CatalogPageGroupDocument.self)?.pages ?? []).map { ($0.file, $0.sha256) }
                }
                for group in document.titleGroups {
                    named += (read(group.file, as: CatalogTitleGroupDocument.self)?.chunks ?? []).map { ($0.file, $0.sha256) }
                }
            }
        }
        return PublicationReader.problems(directory)
            + named.compactMap { file, digest in sha256(ofFile: directory + "/" + file) == digest ? nil : "\(file) missing or mismatched" }
    }

    @Test func aPublicationKilledAnywhereLeavesAWholePublicationAndTheNextRunCompletesIt() throws {
        let run = try BinaryRun(feeds: 30, items: 3)
        #expect(try run.createAll().status == 0)
        // How long a whole publication takes here: the kills fall anywhere within it.
        let started = ContinuousClock.now
        #expect(try run.publishAll().status == 0)
        let whole = max(0.05, (ContinuousClock.now - started) / .seconds(1))
        var generator = SeededGenerator.announced()
        var killed = 0
        var generation = try PublishHarnessReader.manifest(run.out).generation
        for round in 1...8 {
            // Every feed changes, so each publication writes 30 snapshots and 30 deltas or more.
            for feed in 1...30 {
                try ChangedFeed(path: run.data + "/feed_\(feed).sqlite").upsert([entry("kill-\(round)-\(feed)")], now: 5_000 + Int64(round))
            }
            let process = try run.publish.start(["--data-dir", run.data, "--out", run.out])
            Thread.sleep(forTimeInterval: Double.random(in: 0...whole, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 }
            #expect(Self.problems(in: run.out).isEmpty, "round \(round): \(Self.problems(in: run.out))")
            let now = try PublishHarnessReader.manifest(run.out).generation
            #expect(now == generation || now == generation + 1, "round \(round): the previous publication or the next, generation \(now)")
            generation = now
        }
        #expect(killed >= 4, "most rounds were really interrupted (\(killed) of 8)")
        for feed in 1...30 {
            try ChangedFeed(path: run.data + "/feed_\(feed).sqlite").upsert([entry("final-\(feed)")], now: 6_000)
        }
        let last = try run.publishAll()
        #expect(last.status == 0, "\(last.stderr)")
        #expect(Self.problems(in: run.out).isEmpty, "\(Self.problems(in: run.out))")
        let manifest = try PublishHarnessReader.manifest(run.out)
        #expect(manifest.feeds.count == 30)
        for feed in manifest.feeds {
            #expect(sha256(ofFile: run.out + "/" + feed.name) == feed.sha256, "\(feed.name) serves its current snapshot")
            let pointer = try #require(try PublicationReader.pointer(run.out, feed.feedID))
            #expect(PublicationReader.usable(pointer, in: try PublicationReader.root(run.out))?.file == feed.file, "feed \(feed.feedID)'s pointer gives it")
            #expect(try sqlite(run.out + "/" + feed.file, "SELECT COUNT(*) FROM items WHERE id LIKE 'final-%'") == [["1"]])
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: run.out).filter {
            $0.contains(".tmp-") || $0.hasPrefix(".feedmill-scratch.")
        }
        #expect(leftovers.isEmpty, "the killed runs' temporaries are gone: \(leftovers)")
    }
}
