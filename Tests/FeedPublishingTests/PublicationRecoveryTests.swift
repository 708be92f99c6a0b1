import FeedBasics
import FeedModel
import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import GRDB
import TestSupport
import Testing

/// The publisher's output directory treated as untrusted, damaged or full: names outside its
/// own are never acted on, a lost manifest is recovered by digests, a failed publication
/// takes back what it wrote, and a feed removed meanwhile is passed over.
@Suite("Publication: recovery and failure", .serialized)
struct PublicationRecoveryTests {
    @Test(arguments: [
        #""history":[{"version":1,"file":"../victim.txt","sha256":"x"}]"#,
        #""history":[{"version":1,"file":"feed_2.v1.sqlite","sha256":"x"}]"#,
        #""deltas":[{"from_version":1,"file":"/etc/passwd","sha256":"x","size":1}]"#,
    ])
    func aManifestNamingAnythingButThePublishersOwnFilesIsNotUsed(misnamed: String) throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let victim = try run.root.write("victim.txt", "not the publisher's")
        // The record edited: feed 1's entry gets the misnamed list, and the edited record is put
        // under the name of its digest, which the root is edited to name (so only its names are wrong).
        let manifestPath = run.out + "/manifest.json"
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
        var shards = try #require(root["shards"] as? [String: [String: Any]])
        let recordName = try #require(shards["1/1"]?["record"] as? String)
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: run.out + "/" + recordName))) as? [String: Any])
        // Feed 1's entry is in the record's first page (issue 51): the page is edited and put
        // under the name of its digest, which the record is edited to name.
        var pages = try #require(manifest["feed_pages"] as? [[String: Any]])
        let pageName = try #require(pages[0]["file"] as? String)
        var page = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: run.out + "/" + pageName))) as? [String: Any])
        var feeds = try #require(page["feeds"] as? [[String: Any]])
        let edit = try #require(try JSONSerialization.jsonObject(with: Data(("{" + misnamed + "}").utf8)) as? [String: Any])
        feeds[0].merge(edit) { $1 }
        page["feeds"] = feeds
        let editedPage = try JSONSerialization.data(withJSONObject: page)
        let pageDigest = SHA256.hexDigest([UInt8](editedPage))
        try editedPage.write(to: URL(fileURLWithPath: run.out + "/publisher.1of1.p0.\(pageDigest).json"))
        pages[0]["file"] = "publisher.1of1.p0.\(pageDigest).json"
        pages[0]["sha256"] = pageDigest
        manifest["feed_pages"] = pages
        let edited = try JSONSerialization.data(withJSONObject: manifest)
        let digest = SHA256.hexDigest([UInt8](edited))
        try edited.write(to: URL(fileURLWithPath: run.out + "/publisher.1of1.\(digest).json"))
        shards["1/1"]?["record"] = "publisher.1of1.\(digest).json"
        shards["1/1"]?["publication"] = String(digest.prefix(16))
        root["shards"] = shards
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: manifestPath))
        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("new")], now: 9_000)
        let refused = try run.publishAll()
        #expect(refused.status == 70, "\(refused.stderr)")
        #expect(refused.stderr.contains("not a name the publisher gives") && refused.stderr.contains("--recover"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "not the publisher's")
        // Recovered from the record, the publication goes on; the victim is never touched.
        let recovered = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--recover"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(try publishedFeeds(run.out) == [1, 2])
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "not the publisher's")
    }

    @Test(arguments: ["deleted", "truncated"])
    func aLostManifestStopsPublishingWithAdviceAndRecoverAdoptsThePublishersFilesByDigest(damage: String) throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("second")], now: 9_000)
        #expect(try run.publishAll().status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: run.out + "/manifest.json"))
        let generation = try JSONDecoder().decode(PublicationRoot.self, from: before).generation
        if damage == "deleted" {
            try FileManager.default.removeItem(atPath: run.out + "/manifest.json")
        } else {
            try before.prefix(before.count / 2).write(to: URL(fileURLWithPath: run.out + "/manifest.json"))
        }
        // An operator's own file under a stable name is still never taken.
        try FileManager.default.removeItem(atPath: run.out + "/feed_2.sqlite")
        _ = try run.root.write("publish/feed_2.sqlite", "mine")
        let stopped = try run.publishAll()
        #expect(stopped.status == 70, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("rss-publish --recover"), "\(stopped.stderr)")
        let recovering = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--recover"])
        #expect(recovering.status == 70 && recovering.stderr.contains("feed_2.sqlite") && recovering.stderr.contains("move it away"), "\(recovering.stderr)")
        #expect(try String(contentsOfFile: run.out + "/feed_2.sqlite", encoding: .utf8) == "mine")
        try FileManager.default.removeItem(atPath: run.out + "/feed_2.sqlite")
        let recovered = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--recover"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.stderr.contains("recovered generation \(generation)"), "\(recovered.stderr)")
        let manifest = try PublishHarnessReader.manifest(run.out)
        #expect(manifest.generation == generation + 1)
        #expect(try PublicationReader.root(run.out).generation == generation + 1)
        #expect(PublicationReader.problems(run.out).isEmpty, "\(PublicationReader.problems(run.out))")
        #expect(manifest.feeds.first { $0.feedID == 1 }?.version == 2, "the adopted version is kept, not republished")
        #expect(try run.publishAll().status == 0)
    }

    @Test func recoveringNeverWritesOverAVersionItCannotVouchForNorCountsBack() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("second")], now: 9_000)
        #expect(try run.publishAll().status == 0)
        // Feed 1's current snapshot (v2) damaged, its v1 still what was published; the root lost.
        let published = try #require(try PublishHarnessReader.manifest(run.out).feeds.first { $0.feedID == 1 })
        let v2File = published.file
        let v1File = try #require(published.history.first { $0.version == 1 }?.file)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: run.out + "/" + v2File))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("tail".utf8))
        try handle.close()
        let v1 = try Data(contentsOf: URL(fileURLWithPath: run.out + "/" + v1File))
        try FileManager.default.removeItem(atPath: run.out + "/manifest.json")
        try FileManager.default.removeItem(atPath: run.out + "/feed_1.sqlite")
        let recovered = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--recover"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.stderr.contains("feed 1: \(v2File) is not what was published"), "\(recovered.stderr)")
        let manifest = try PublishHarnessReader.manifest(run.out)
        let feed = try #require(manifest.feeds.first { $0.feedID == 1 })
        #expect(feed.version == 3, "above every version published before")
        #expect(try Data(contentsOf: URL(fileURLWithPath: run.out + "/" + v1File)) == v1, "never written over")
        // The same rows as v2: the file at v2's name, named by its bytes, now holds the bytes it names.
        #expect(feed.file == v2File && sha256(ofFile: run.out + "/" + v2File) == feed.sha256)
        #expect(PublicationReader.problems(run.out).isEmpty, "\(PublicationReader.problems(run.out))")
    }

    @Test func aManifestCountingPastWhatAPublisherCountsIsNotUsed() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let path = run.out + "/manifest.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: #""generation":1"#, with: #""generation":9223372036854775807"#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("9223372036854775807"))
        let result = try run.publishAll()
        #expect(result.status == 70 && result.stderr.contains("not one a publisher counts to"), "\(result.stderr)")
    }

    @Test func aFeedRefusedForAWrongValueLeavesAFileAtItsNextVersionAlone() throws {
        let harness = try Harness()
        try harness.add(["https://a.example/f"])
        try ChangedFeed(path: harness.databasePath(1)).upsert([entry("e1")], now: 5_000)
        let (publisher, out) = try makePublisher(for: harness)
        _ = try publisher.run()
        // Left by a publication killed before its manifest, say.
        let leftover = try out.write("feed_1.v2.sqlite", "left over")
        let strayContentName = try out.write("feed_1.\(String(repeating: "0", count: 64)).sqlite", "left over")
        try ChangedFeed(path: harness.databasePath(1)).upsert([entry("e2")], now: 6_000)
        try tamper(harness.databasePath(1), "UPDATE items SET title = X'00' WHERE id = 'e2'")
        let report = try publisher.run()
        #expect(report.failures.map(\.feedID) == [1])
        #expect(try String(contentsOfFile: leftover, encoding: .utf8) == "left over", "this run did not write it, so it does not take it back")
        #expect(try String(contentsOfFile: strayContentName, encoding: .utf8) == "left over")
    }

    @Test func aPublicationThatFailsTakesBackWhatItWroteAndTheNextOneSucceeds() throws {
        let harness = try Harness()
        try harness.add(["https://a.example/f", "https://b.example/f", "https://c.example/f"])
        for id in 1...3 { try ChangedFeed(path: harness.databasePath(Int64(id))).upsert([entry("e\(id)")], now: 5_000) }
        let (publisher, out) = try makePublisher(for: harness)
        _ = try publisher.run()
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: out.url.path))
        for id in 1...3 { try ChangedFeed(path: harness.databasePath(Int64(id))).upsert([entry("n\(id)")], now: 6_000) }
        // The manifest cannot be written (something holds its temporary name): the run fails at the end.
        let blocker = out.url.path + "/manifest.json.tmp-\(getpid())"
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
        #expect(throws: PublishError.self) { try publisher.run() }
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: out.url.path))
        #expect(after.subtracting(before) == ["manifest.json.tmp-\(getpid())"], "no new version or delta is left behind: \(after.subtracting(before))")
        #expect(PublicationReader.problems(out.url.path).isEmpty, "the pointers written still give the committed entries: \(PublicationReader.problems(out.url.path))")
        try FileManager.default.removeItem(atPath: blocker)
        let report = try publisher.run()
        #expect(report.feedsWritten == 3 && report.failures.isEmpty)
        #expect(PublicationReader.problems(out.url.path).isEmpty)
        #expect(try PublicationReader.feeds(out.url.path).values.allSatisfy { $0?.generation == 2 })
    }

    @Test func aFeedThatFailsHalfWayTakesBackItsSnapshotAndKeepsItsLastGoodOne() throws {
        let harness = try Harness()
        try harness.add(["https://a.example/f"])
        try ChangedFeed(path: harness.databasePath(1)).upsert([entry("e1")], now: 5_000)
        let (publisher, out) = try makePublisher(for: harness)
        _ = try publisher.run()
        let v1File = try #require(try PublishHarnessReader.manifest(out.url.path).feeds.first?.file)
        try ChangedFeed(path: harness.databasePath(1)).upsert([entry("e2")], now: 6_000)
        // Its delta cannot be put.
        let target = InterceptingTarget(DirectoryTarget(path: out.url.path, awayFrom: harness.configuration.data.path)) { $0.hasSuffix(".delta.json") }
        let report = try PublishRun(harness: harness, configuration: publisher.configuration, target: target).run()
        #expect(report.failures.map(\.feedID) == [1])
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: out.url.path).filter {
            if case .feedSnapshot? = PublishedName(fileName: $0) { true } else { false }
        }
        #expect(snapshots == [v1File], "its new version is taken back")
        let manifest = try PublishHarnessReader.manifest(out.url.path)
        #expect(manifest.feeds.first?.file == v1File)
    }

    @Test(.enabled(if: SmallFileSystem.available, "mounting a tmpfs needs root"))
    func aPublicationOnAFullFileSystemLeavesNothingBehind() throws {
        let harness = try Harness()
        try harness.add(["https://a.example/f", "https://b.example/f", "https://c.example/f"])
        for id in 1...3 {
            try FeedDatabase(path: harness.databasePath(Int64(id)))
                .upsert((0..<40).map { entry("e\(id)-\($0)", summary: String(repeating: "x", count: 2_000)) }, now: 5_000)
        }
        guard let small = SmallFileSystem(options: "size=160k") else { return }
        var configuration = PublishConfiguration()
        configuration.outputDirectory = small.path + "/out"
        let publisher = PublishRun(harness: harness, configuration: configuration)
        do {
            let report = try publisher.run()
            #expect(!report.failures.isEmpty, "three 80 KB snapshots do not fit in 160 KB")
        } catch {
            #expect(error.description.contains("full") || error.description.contains("space"), "\(error)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: small.path + "/out")
        #expect(!left.contains { $0.contains(".tmp-") || $0.hasPrefix(".feedmill-scratch.") }, "no temporary is left: \(left)")
        let snapshots = left.filter { name in
            switch PublishedName(fileName: name) {
            case .feedSnapshot?, .catalogSnapshot?, .feedDeltaFile?, .record?: true
            default: false
            }
        }
        // Whatever was published is whole: every file the root and the record name is there.
        if FileManager.default.fileExists(atPath: small.path + "/out/manifest.json") {
            let manifest = try PublishHarnessReader.manifest(small.path + "/out")
            for feed in manifest.feeds { #expect(left.contains(feed.file)) }
            let record = try #require(try PublicationReader.root(small.path + "/out").shards["1/1"]?.record)
            #expect(Set(snapshots) == Set(manifest.feeds.map(\.file) + (manifest.catalog.map { [$0.file] } ?? []) + [record]))
            #expect(PublicationReader.problems(small.path + "/out").isEmpty)
        } else {
            #expect(snapshots.isEmpty, "nothing published: no snapshot left either: \(left)")
        }
    }

    @Test func feedsRemovedWhilePublishingArePassedOverWithoutAWord() throws {
        let harness = try Harness()
        let count = 40
        try harness.add((1...count).map { "https://f\($0).example/feed" })
        for id in 1...count {
            try FeedDatabase(path: harness.databasePath(Int64(id)), identity: try harness.feed(Int64(id)).identity)
                .upsert((0..<20).map { entry("e\(id)-\($0)") }, now: 5_000)
        }
        let (publisher, out) = try makePublisher(for: harness)
        // A removal caught half-way, as a publication can see it: the feed's rows are gone and
        // its file is not (yet) a database a publisher can read.
        let done = Locked(false)
        let publications = Locked(0)
        // Removals in steps of four, each as soon as a publication has ended, so that they
        // fall during the next one however fast or slow this machine is today.
        let remover = Thread {
            for id in stride(from: count, to: 0, by: -1) {
                if id % 4 == 0 {
                    let seen = publications.value
                    while publications.value == seen { usleep(200) }
                }
                _ = try? harness.catalog.remove(feedID: Int64(id))
                try? Data("half removed".utf8).write(to: URL(fileURLWithPath: harness.databasePath(Int64(id))))
            }
            done.set(true)
        }
        remover.start()
        while !done.value || publications.value == 0 {
            let report = try publisher.run(only: nil, recover: false)
            #expect(report.failures.isEmpty, "\(report.failures)")
            publications.set(publications.value + 1)
        }
        #expect(publications.value > 1)
    }

    @Test func anItemDatedFarAheadIsNeverOnTopOfThePages() throws {
        let harness = try Harness()
        try harness.add(["https://a.example/f"])
        // Stored before normalisation bounded dates (or by hand): year 9999.
        try FeedDatabase(path: harness.databasePath(1), identity: try harness.feed(1).identity).upsert(
            [entry("old", title: "Ordinary", pubdate: 1_699_000_000), entry("far", title: "From 9999", pubdate: 253_402_300_799)], now: 1_700_000_000)
        let (publisher, out) = try makePublisher(for: harness)
        _ = try publisher.run()
        let atom = try String(contentsOfFile: out.url.path + "/atom.xml", encoding: .utf8)
        #expect(atom.contains("Ordinary") && !atom.contains("From 9999"), "\(atom)")
        #expect(!(try String(contentsOfFile: out.url.path + "/index.html", encoding: .utf8)).contains("From 9999"))
    }
}

