import FeedBasics
import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Publication format 2 (SPEC-41): names, the root committed over the version read, the
/// intent that lets the next run repair a publication cut short, the grace period, shards.
@Suite("Publication format 2", .serialized)
struct FormatTwoTests {
    @Test func everyNameReadsBackAsTheNameItWasWrittenAs() throws {
        let sha = String(repeating: "0123456789abcdef", count: 4)
        let shard = try Shard(index: 3, count: 12)
        let names: [PublishedName] = [
            .feed(7), .feedVersion(7, version: 2), .feedDelta(7, from: 1, to: 2), .catalog, .catalogVersion(4), .atom, .index,
            .feedSnapshot(7, sha256: sha), .feedDeltaFile(7, sha256: sha), .catalogSnapshot(sha256: sha), .pointer(7),
            .record(shard, sha256: sha), .intent(shard), .intent(.all), .legacyRecord,
        ]
        for name in names { #expect(PublishedName(fileName: name.fileName) == name, "\(name.fileName)") }
        #expect(PublishedName.record(shard, sha256: sha).fileName == "publisher.3of12.\(sha).json")
        #expect(PublishedName.intent(shard).fileName == ".feedmill-intent.3of12.json")
        #expect(PublishedName.feedSnapshot(7, sha256: sha).fileName == "feed_7.\(sha).sqlite")
        // Only the form the publisher writes: lower-case hex of 64 digits, shards it could give.
        for foreign in [
            "feed_7.\(sha.uppercased()).sqlite", "feed_7.\(sha.dropLast()).sqlite", "all_feeds.\(sha)0.sqlite", "publisher.0of2.\(sha).json",
            "publisher.3of2.\(sha).json", "publisher.1of1.\(sha.dropLast()).json", ".feedmill-intent.1of1025.json", "feed_07.json",
            "feed_7.json.bak", ".feedmill-intent.1of1.json.tmp",
        ] {
            #expect(PublishedName(fileName: foreign) == nil, "\(foreign)")
        }
        #expect(PublishedName.feedSnapshot(7, sha256: sha).version == nil, "format 2 names carry no version to count above")
    }

    @Test func theRecordsDigestIsThePublicationIdAndTheSameDataGivesTheSameOne() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 2)
        let first = try publish.publish()
        let other = try TemporaryDirectory()
        let second = try publish.publish(into: other.url.path)
        #expect(first.publication != nil && first.publication == second.publication)
        let root = try publish.root()
        #expect(root.shards["1/1"]?.publication == first.publication)
        let text = try String(contentsOfFile: publish.outPath + "/manifest.json", encoding: .utf8)
        #expect(text.hasSuffix("}\n") && text.contains("\"feed_pointer\":\"feed_{feedid}.json\"") && !text.contains(" "), "compact, sorted, / unescaped, a newline")
        #expect(try Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/manifest.json")).count < 2_000, "no per-feed data in the root")
    }

    /// A run that wrote its pointers but never committed its root (killed, or refused at the
    /// commit) leaves pointers whose first entry no root vouches for; the next run rewrites
    /// every pointer its intent names, even of a feed that did not change again, so that no
    /// later root can make such an entry usable.
    @Test func anUncommittedPublicationIsRepairedByTheNextRun() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 2)
        _ = try publish.publish()
        let committed = try publish.manifest()
        let feed1Before = try Data(contentsOf: URL(fileURLWithPath: publish.harness.databasePath(1)))
        try publish.write(1, [entry("uncommitted")])
        try publish.write(2, [entry("also")])
        // The commit is refused (as if another publisher had committed first): nothing is taken back.
        let target = InterceptingTarget(DirectoryTarget(path: publish.outPath, awayFrom: publish.harness.configuration.data.path))
        let rootBefore = try Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/manifest.json"))
        target.beforeNextCommit { [out = publish.outPath] in
            var root = try? JSONDecoder().decode(PublicationRoot.self, from: rootBefore)
            root?.shards["1/1"]?.publication = "ffffffffffffffff"
            if let bytes = try? root?.encoded() { try? Data(bytes).write(to: URL(fileURLWithPath: out + "/manifest.json")) }
        }
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publish.outPath
        #expect(throws: PublishError.self) { try PublishRun(harness: publish.harness, configuration: configuration, target: target).run() }
        try rootBefore.write(to: URL(fileURLWithPath: publish.outPath + "/manifest.json"))
        let intent = try JSONDecoder().decode(PublishIntent.self, from: Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/.feedmill-intent.1of1.json")))
        #expect(intent.generation == 2 && intent.feeds == [1, 2])
        let pointer = try #require(try PublicationReader.pointer(publish.outPath, 1))
        #expect(pointer.entries.map(\.generation) == [2, 1], "the uncommitted entry first")
        #expect(PublicationReader.usable(pointer, in: try publish.root())?.version == 1, "a client still gets the committed one")
        #expect(PublicationReader.problems(publish.outPath).isEmpty, "\(PublicationReader.problems(publish.outPath))")
        // Feed 1 back as it was: the next run has nothing new for it, and still rewrites its pointer.
        try feed1Before.write(to: URL(fileURLWithPath: publish.harness.databasePath(1)))
        let repaired = try publish.publish()
        #expect(repaired.feedsWritten == 1 && repaired.pointersWritten == 2, "feed 2 changed; feed 1 repaired")
        let entry1 = try #require(try PublicationReader.pointer(publish.outPath, 1))
        #expect(entry1.entries.map(\.version) == [1] && entry1.entries[0].file == committed.feeds[0].file)
        // Two generations on, no entry of the run that never committed is usable anywhere.
        try publish.write(3, [entry("later")])
        _ = try publish.publish()
        for (id, usable) in try PublicationReader.feeds(publish.outPath) {
            let usable = try #require(usable, "feed \(id)")
            #expect(usable.publication != intent.publication, "feed \(id)")
        }
        #expect(PublicationReader.problems(publish.outPath).isEmpty, "\(PublicationReader.problems(publish.outPath))")
    }

    /// A first publication cut short after its record, before its root: no root was ever
    /// committed (no page, no stable name), so the next run resumes from the record, without
    /// `--recover`, and nothing complete is written again.
    @Test func aFirstPublicationCutShortBeforeItsRootIsResumedByTheNextRun() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 2)
        let target = InterceptingTarget(DirectoryTarget(path: publish.outPath, awayFrom: publish.harness.configuration.data.path))
        target.refuseNextCommit()
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publish.outPath
        #expect(throws: PublishError.self) { try PublishRun(harness: publish.harness, configuration: configuration, target: target).run() }
        #expect(!FileManager.default.fileExists(atPath: publish.outPath + "/manifest.json"))
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: publish.outPath).filter {
            if case .feedSnapshot? = PublishedName(fileName: $0) { true } else { false }
        }
        #expect(snapshots.count == 3)
        let modified = try snapshots.map { try FileManager.default.attributesOfItem(atPath: publish.outPath + "/" + $0)[.modificationDate] as? Date }
        let resumed = try publish.publish()
        #expect(resumed.failures.isEmpty && resumed.feedsWritten == 0 && resumed.generation == 2, "above the generation the record gave")
        #expect(try publish.root().generation == 2)
        #expect(try snapshots.map { try FileManager.default.attributesOfItem(atPath: publish.outPath + "/" + $0)[.modificationDate] as? Date } == modified,
            "the complete snapshots were not written again")
        #expect(try publish.manifest().feeds.map(\.file).sorted() == snapshots.sorted())
        #expect(PublicationReader.problems(publish.outPath).isEmpty, "\(PublicationReader.problems(publish.outPath))")
        #expect(try PublicationReader.feeds(publish.outPath).count == 3)
    }

    @Test func aRootChangedUnderneathInThisShardsEntryStopsWithNothingCommitted() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 2)
        _ = try publish.publish()
        try publish.write(1, [entry("changed")])
        let target = InterceptingTarget(DirectoryTarget(path: publish.outPath, awayFrom: publish.harness.configuration.data.path))
        let theirs = Locked<Data?>(nil)
        target.beforeNextCommit { [out = publish.outPath] in
            // Another publisher of this shard committed meanwhile (its generation 2).
            guard let data = FileManager.default.contents(atPath: out + "/manifest.json"),
                var root = try? JSONDecoder().decode(PublicationRoot.self, from: data)
            else { return }
            root.generation += 1
            root.shards["1/1"]?.generation += 1
            root.shards["1/1"]?.publication = "0123456789abcdef"
            guard let bytes = try? root.encoded() else { return }
            try? Data(bytes).write(to: URL(fileURLWithPath: out + "/manifest.json"))
            theirs.set(Data(bytes))
        }
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publish.outPath
        let error = #expect(throws: PublishError.self) { try PublishRun(harness: publish.harness, configuration: configuration, target: target).run() }
        guard case .rootChanged? = error else {
            Issue.record("expected rootChanged, got \(String(describing: error))")
            return
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/manifest.json")) == theirs.value, "the other publisher's root stays")
        // Nothing half-done: under the root there now, every pointer gives a usable entry whose files are there.
        #expect(PublicationReader.problems(publish.outPath).isEmpty, "\(PublicationReader.problems(publish.outPath))")
        #expect(FileManager.default.fileExists(atPath: publish.outPath + "/.feedmill-intent.1of1.json"), "the intent stays, for the next run")
    }

    @Test func aRootChangedOnlyElsewhereIsMergedAgainAndCommitted() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 2)
        _ = try publish.publish()
        try publish.write(1, [entry("changed")])
        let target = InterceptingTarget(DirectoryTarget(path: publish.outPath, awayFrom: publish.harness.configuration.data.path))
        target.beforeNextCommit { [out = publish.outPath] in
            // The same root, written otherwise (its version changes, this shard's entry does not).
            guard let data = FileManager.default.contents(atPath: out + "/manifest.json") else { return }
            try? (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: out + "/manifest.json"))
        }
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publish.outPath
        let report = try PublishRun(harness: publish.harness, configuration: configuration, target: target).run()
        #expect(report.generation == 2 && report.rootGeneration == 2)
        #expect(try publish.root().shards["1/1"]?.publication == report.publication)
        #expect(PublicationReader.problems(publish.outPath).isEmpty)
    }

    @Test func aRetiredFileStaysForTheGracePeriodAndAtLeastOneGeneration() throws {
        let publish = try PublishHarness()
        publish.retained = 0
        publish.retireAfter = 3_600
        try publish.seed(feeds: 1, items: 1)
        publish.harness.now = 1_800_000_000
        _ = try publish.publish()
        let first = try #require(try publish.manifest().feeds.first?.file)
        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: publish.outPath + "/" + name) }
        try publish.write(1, [entry("second")])
        publish.harness.now += 10
        _ = try publish.publish()
        #expect(exists(first), "the pointer's previous entry: a client of the previous root uses it")
        #expect(try publish.manifest().feeds.first?.previousEntry?.file == first)
        try publish.write(1, [entry("third")])
        publish.harness.now += 10
        _ = try publish.publish()
        #expect(exists(first), "retired now")
        #expect(try publish.manifest().retired?.map(\.name).contains(first) == true)
        try publish.write(1, [entry("fourth")])
        publish.harness.now += 1_000
        _ = try publish.publish()
        #expect(exists(first), "a later generation, but within the grace period")
        try publish.write(1, [entry("fifth")])
        publish.harness.now += 3_600
        let report = try publish.publish()
        #expect(!exists(first), "past the grace period")
        #expect(report.filesRemoved > 0)
        #expect(PublicationReader.problems(publish.outPath).isEmpty)
    }

    /// Two shards of one catalog, each with its own data directory (as on two machines),
    /// publish into one directory one after the other: one root with both shards' entries,
    /// every feed's pointer from its own shard, and one catalog whose `about` rows of each
    /// feed come from the shard that owns it.
    @Test func twoShardsPublishIntoOneDirectoryAsOneRootWithAMergedCatalog() throws {
        let one = try Shard(index: 1, count: 2), two = try Shard(index: 2, count: 2)
        var urls: [String] = []
        var owned: [Int: Int] = [1: 0, 2: 0]
        for host in 0..<64 where owned.values.contains(where: { $0 < 2 }) {
            let url = "https://h\(host).example/feed.xml"
            let index = ShardAssignment.shardIndex(ofHost: "h\(host).example", count: 2)
            guard (owned[index] ?? 0) < 2 else { continue }
            owned[index, default: 0] += 1
            urls.append(url)
        }
        #expect(urls.count == 4)
        let out = try TemporaryDirectory()
        let machines = [one, two].map { shard in (shard, Result { try PublishHarness() }) }
        var harnesses: [Int: PublishHarness] = [:]
        for (shard, made) in machines {
            let publish = try made.get()
            let ids = try publish.harness.add(urls)
            for (id, url) in zip(ids, urls) {
                let host = URL(string: url)?.host
                // Each machine fetched only its own shard's feeds: only those have databases and titles.
                guard shard.owns(host: host) else { continue }
                try publish.write(id, [entry("f\(id)-a")])
                var feed = try publish.harness.feed(id)
                feed.title = "Feed \(id) from shard \(shard.label)"
                feed.lastUpdate = 1_700_000_000 + id
                try publish.harness.catalog.save(feed)
            }
            harnesses[shard.index] = publish
        }
        let first = try #require(harnesses[1]), second = try #require(harnesses[2])
        _ = try first.publish(into: out.url.path, shard: one)
        #expect(try PublicationReader.root(out.url.path).shards.keys.sorted() == ["1/2"])
        _ = try second.publish(into: out.url.path, shard: two)
        let root = try PublicationReader.root(out.url.path)
        #expect(root.shards.keys.sorted() == ["1/2", "2/2"])
        #expect(root.generation == 2)
        let pointers = try PublicationReader.feeds(out.url.path)
        #expect(pointers.keys.sorted() == [1, 2, 3, 4])
        for (id, entry) in pointers {
            let entry = try #require(entry, "feed \(id) usable")
            let host = URL(string: urls[Int(id) - 1])?.host
            #expect(entry.shard == (one.owns(host: host) ? "1/2" : "2/2"), "feed \(id)'s pointer is its own shard's")
        }
        #expect(PublicationReader.problems(out.url.path).isEmpty, "\(PublicationReader.problems(out.url.path))")
        let catalog = out.url.path + "/" + (try #require(root.catalog)).file
        let titles = try sqlite(catalog, "SELECT feedid, title FROM about ORDER BY feedid")
        #expect(titles.count == 4)
        for row in titles {
            let id = try #require(row[0].flatMap { Int($0) })
            let host = URL(string: urls[id - 1])?.host
            #expect(row[1] == "Feed \(id) from shard \(one.owns(host: host) ? "1/2" : "2/2")", "\(row)")
        }
        #expect(try sqlite(catalog, "SELECT COUNT(*) FROM feeds") == [["4"]])
        #expect(sha256(ofFile: out.url.path + "/all_feeds.sqlite") == root.catalog?.sha256, "the stable name serves the merged catalog")
        let atom = try String(contentsOfFile: out.url.path + "/atom.xml", encoding: .utf8)
        for url in urls { #expect(atom.contains("<id>\(url)</id>"), "atom.xml has the entries of every shard: \(url)") }
        // Each shard's record and intent carry its label; neither wrote the other's names.
        let names = try FileManager.default.contentsOfDirectory(atPath: out.url.path)
        // (One record each, and its pages: `publisher.1of2.p0.<sha256>.json`.)
        let records = names.filter { PublishedName(fileName: $0).map { if case .record = $0 { true } else { false } } ?? false }
        #expect(records.filter { $0.hasPrefix("publisher.1of2.") }.count == 1 && records.filter { $0.hasPrefix("publisher.2of2.") }.count == 1)
        #expect(names.filter { $0.hasPrefix("publisher.1of2.p") }.count >= 1 && names.filter { $0.hasPrefix("publisher.2of2.p") }.count >= 1)
        #expect(names.contains(".feedmill-intent.1of2.json") && names.contains(".feedmill-intent.2of2.json"))
        // The first shard again, after a change of its own: the second's entry is kept.
        let firstOwned = try #require(urls.indices.first { one.owns(host: URL(string: urls[$0])?.host) })
        try first.write(Int64(firstOwned + 1), [entry("again")])
        _ = try first.publish(into: out.url.path, shard: one)
        let again = try PublicationReader.root(out.url.path)
        #expect(again.shards["2/2"] == root.shards["2/2"] && again.shards["1/2"]?.generation == 2 && again.generation == 3)
        #expect(PublicationReader.problems(out.url.path).isEmpty, "\(PublicationReader.problems(out.url.path))")
    }
}
