import FeedBasics
import FeedModel
import FeedParsing
import FeedPublishing
@testable import FeedStorage
import Foundation
import PipelineTestSupport
import GRDB
import TestSupport
import Testing

@Suite("rss-publish")
struct PublishTests {
    @Test func everyFileTheManifestNamesExistsAndMatchesItsHash() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 4)
        let report = try publish.publish()
        #expect(report.generation == 1 && report.feedsWritten == 3)
        let manifest = try publish.manifest()
        let catalog = try #require(manifest.catalog)
        #expect(sha256(ofFile: publish.outPath + "/" + catalog.file) == catalog.sha256)
        for feed in manifest.feeds {
            #expect(sha256(ofFile: publish.outPath + "/" + feed.file) == feed.sha256)
            #expect(feed.itemCount == 4)
            #expect(feed.name == "feed_\(feed.feedID).sqlite")
            #expect(feed.file == "feed_\(feed.feedID).\(feed.sha256).sqlite", "named by its content")
        }
        // As a client reads it: the root, then each pointer's usable entry.
        let root = try publish.root()
        #expect(root.generation == 1 && root.formatVersion == 2 && root.shards.keys.sorted() == ["1/1"])
        #expect(root.catalog?.file == catalog.file && root.catalog?.sha256 == catalog.sha256)
        #expect(root.feedPointer == "feed_{feedid}.json")
        let record = try #require(root.shards["1/1"])
        let recordBytes = try #require(FileManager.default.contents(atPath: publish.outPath + "/" + record.record))
        #expect(record.record == "publisher.1of1.\(SHA256.hexDigest([UInt8](recordBytes))).json")
        #expect(SHA256.hexDigest([UInt8](recordBytes)).prefix(16) == record.publication)
        let pointers = try PublicationReader.feeds(publish.outPath)
        #expect(pointers.keys.sorted() == [1, 2, 3])
        for (id, entry) in pointers {
            let entry = try #require(entry, "feed \(id) has a usable entry")
            #expect(entry.file == manifest.feeds.first { $0.feedID == id }?.file)
        }
        #expect(PublicationReader.problems(publish.outPath).isEmpty, "\(PublicationReader.problems(publish.outPath))")
    }

    @Test func anUnchangedFeedKeepsItsPointersBytesAndAChangedOneGivesBothEntries() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 2)
        _ = try publish.publish()
        func pointerBytes(_ id: Int64) -> Data? { FileManager.default.contents(atPath: publish.outPath + "/feed_\(id).json") }
        let before = (1...3).map(pointerBytes)
        let modified = try FileManager.default.attributesOfItem(atPath: publish.outPath + "/feed_1.json")[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 1.1)
        try publish.write(2, [entry("new")])
        let report = try publish.publish()
        #expect(report.pointersWritten == 1)
        #expect(pointerBytes(1) == before[0] && pointerBytes(3) == before[2], "an unchanged feed's pointer (and ETag) stays")
        #expect(try FileManager.default.attributesOfItem(atPath: publish.outPath + "/feed_1.json")[.modificationDate] as? Date == modified)
        #expect(pointerBytes(2) != before[1])
        let pointer = try #require(try PublicationReader.pointer(publish.outPath, 2))
        #expect(pointer.entries.map(\.version) == [2, 1] && pointer.entries.map(\.generation) == [2, 1])
        let root = try publish.root()
        #expect(PublicationReader.usable(pointer, in: root)?.version == 2)
        // A client still holding the previous root finds the previous entry usable, and its file there.
        var previousRoot = root
        previousRoot.shards["1/1"]?.generation = 1
        previousRoot.shards["1/1"]?.publication = pointer.entries[1].publication
        let old = try #require(PublicationReader.usable(pointer, in: previousRoot))
        #expect(old.version == 1 && sha256(ofFile: publish.outPath + "/" + old.file) == old.sha256)
        #expect(PublicationReader.problems(publish.outPath).isEmpty)
    }

    @Test func theCatalogSnapshotHoldsOnlyWhatClientsNeed() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        _ = try publish.publish()
        let file = publish.outPath + "/" + (try #require(try publish.manifest().catalog)).file
        #expect(try sqlite(file, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == [["about"], ["feeds"], ["last_update"]])
        #expect(try sqlite(file, "SELECT feedid, url FROM feeds") == [["1", "https://feeds.example/1.xml"], ["2", "https://feeds.example/2.xml"]])
        #expect(try sqlite(file, "PRAGMA journal_mode") == [["delete"]])
        let feedFile = publish.outPath + "/" + (try publish.manifest().feeds[0].file)
        let columns = try sqlite(feedFile, "SELECT name FROM pragma_table_info('items')").compactMap(\.first)
        #expect(!columns.contains("content_hash") && !columns.contains("change_seq"))
        #expect(Array(columns.prefix(5)) == ["id", "title", "summary", "pubdate_unix_time", "permalink"])
    }

    @Test func anUnchangedRunWritesNothing() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 2)
        _ = try publish.publish()
        let before = try publish.listing()
        Thread.sleep(forTimeInterval: 1.1)  // beyond any file-system timestamp granularity
        let again = try publish.publish()
        #expect(again.unchanged)
        #expect(again.generation == 1)
        #expect(try publish.listing() == before)
    }

    @Test func onlyChangedDatabasesAreRewritten() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 4, items: 2)
        _ = try publish.publish()
        try publish.write(3, [entry("new")])
        let report = try publish.publish()
        #expect(report.feedsWritten == 1 && report.feedsUnchanged == 3)
        let manifest = try publish.manifest()
        #expect(manifest.generation == 2)
        #expect(manifest.feeds.map(\.version) == [1, 1, 2, 1])
        #expect(manifest.feeds[2].deltas.map(\.fromVersion) == [1])
    }

    @Test func aSecondPublisherIsTurnedAway() throws {
        let publish = try PublishHarness()
        let lock = try RunLock(lockingDirectory: publish.outPath)
        #expect(throws: PublishError.busy(lock: publish.outPath, holder: "another rss-publish")) { try publish.publish() }
        withExtendedLifetime(lock) {}
    }

    @Test func publishingChosenFeedsCarriesTheOthersOver() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 1)
        _ = try publish.publish()
        try publish.write(1, [entry("x")])
        try publish.write(2, [entry("y")])
        let report = try publish.publish(only: [2])
        #expect(report.feedsWritten == 1)
        #expect(try publish.manifest().feeds.map(\.version) == [1, 2, 1], "feed 1 changed but was not asked for")
        _ = try publish.publish()
        #expect(try publish.manifest().feeds.map(\.version) == [2, 2, 1])
    }

    @Test func theSameDataPublishedTwiceIsByteIdentical() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 5)
        let other = try TemporaryDirectory()
        _ = try publish.publish()
        _ = try publish.publish(into: other.url.path)
        let first = try publish.manifest()
        let second = try publish.manifest(other.url.path)
        #expect(first.feeds.map(\.sha256) == second.feeds.map(\.sha256))
        #expect(first.catalog?.sha256 == second.catalog?.sha256)
        let record = try #require(try publish.root().shards["1/1"]?.record)
        for name in ["atom.xml", "index.html", "manifest.json", "feed_1.json", "feed_2.json", "feed_3.json", record] {
            #expect(sha256(ofFile: publish.outPath + "/" + name) == sha256(ofFile: other.url.path + "/" + name))
        }
    }

    @Test func thePreviousVersionStaysUntilTheNextPublication() throws {
        let publish = try PublishHarness()
        publish.retained = 1
        try publish.seed(feeds: 1, items: 1)
        var files: [String] = []  // by version - 1
        func exists(_ version: Int) -> Bool { FileManager.default.fileExists(atPath: publish.outPath + "/" + files[version - 1]) }
        _ = try publish.publish()
        files.append(try publish.manifest().feeds[0].file)
        try publish.write(1, [entry("b")])
        _ = try publish.publish()
        files.append(try publish.manifest().feeds[0].file)
        #expect(exists(1), "a download of v1 may be in progress")
        try publish.write(1, [entry("c")])
        _ = try publish.publish()
        files.append(try publish.manifest().feeds[0].file)
        try publish.write(1, [entry("d")])
        _ = try publish.publish()
        files.append(try publish.manifest().feeds[0].file)
        #expect(Set(files).count == 4)
        #expect(!exists(1))
        #expect(!exists(2))
        #expect(exists(3))
        #expect(exists(4))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: publish.outPath).filter {
            $0.contains(".tmp-") || $0.hasPrefix(".feedmill-scratch.")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func deltasRebuildTheNewSnapshotFromEveryRetainedVersion() throws {
        var generator = SeededGenerator(seed: 42)
        // Every manifest and delta, validated against schemas/ by python3-jsonschema, and every
        // content digest computed again by Scripts/content-digest (deltas applied with SQL).
        let contract = try ContractArchive()
        for sequence in 0..<6 {
            let publish = try PublishHarness()
            publish.retained = 3
            try publish.seed(feeds: 1, items: 0)
            var live: [String: Entry] = [:]
            for round in 0..<8 {
                // Random inserts and edits (updates never delete; deletes come from a rebuilt source).
                var batch: [String: Entry] = [:]
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    let id = "e\(Int.random(in: 0..<15, using: &generator))"
                    let changed = entry(id, title: "t\(Int.random(in: 0..<1000, using: &generator))", pubdate: Int64.random(in: 1...9_999, using: &generator))
                    live[id] = changed
                    batch[id] = changed
                }
                if Int.random(in: 0..<4, using: &generator) == 0, let victim = live.keys.sorted().first {
                    live[victim] = nil
                    try FileManager.default.removeItem(atPath: publish.harness.databasePath(1))
                    try publish.write(1, live.values.sorted { $0.id < $1.id }, now: 5_000 + Int64(round))
                } else {
                    try publish.write(1, batch.values.sorted { $0.id < $1.id }, now: 5_000 + Int64(round))
                }
                _ = try publish.publish()
                try contract.keep(publication: publish.outPath, label: "sequence \(sequence), round \(round)")
                let feed = try #require(try publish.manifest().feeds.first)
                let current = try Snapshot.items(ofSnapshot: publish.outPath + "/" + feed.file)
                #expect(feed.contentDigest == (try Snapshot.contentDigest(ofSnapshot: publish.outPath + "/" + feed.file)))
                for delta in feed.deltas {
                    let old = try #require(feed.history.first { $0.version == delta.fromVersion })
                    var items = try Snapshot.items(ofSnapshot: publish.outPath + "/" + old.file)
                    let data = try Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/" + delta.file))
                    #expect(SHA256.hexDigest([UInt8](data)) == delta.sha256)
                    let decoded = try JSONDecoder().decode(Delta.self, from: data)
                    #expect(decoded.toContentDigest == feed.contentDigest && decoded.schemaVersion == feed.schemaVersion)
                    decoded.apply(to: &items)
                    #expect(items == current, "sequence \(sequence), round \(round), from v\(delta.fromVersion)")
                }
                #expect(feed.deltas.count == min(round, 3))
            }
        }
        #expect(contract.validatedFiles > 100 && contract.digestCount > 100)
        let problems = try contract.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test(.enabled(if: InstalledTool.exists("/usr/bin/xmllint"), "xmllint is not installed (Debian package libxml2-utils)"))
    func atomXMLIsAValidAtomFeedWithSources() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 3)
        try publish.write(1, [Entry(id: "plain-id", idSource: .native, permalink: nil, title: "A < B & C", summary: "<p>x</p>", pubdate: nil, updated: nil, author: "Ann")])
        _ = try publish.publish()
        let bytes = try #require(FileManager.default.contents(atPath: publish.outPath + "/atom.xml"))
        let parsed = try FeedParser.parse([UInt8](bytes))
        #expect(parsed.format == .atom)
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.entries.count == 7)
        let plain = try #require(parsed.entries.first { $0.title?.value == "A < B & C" })
        #expect(plain.nativeID?.hasPrefix("urn:feedmill:feed:1:entry:") == true)
        #expect(plain.published == nil, "an undated entry has no <published>")
        #expect(plain.authors.map(\.name) == ["Ann"])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "<source>").count - 1 == 7)
        #expect(text.contains("<title>Feed 2</title>"))
        let xmllint = Process()
        xmllint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        xmllint.arguments = ["--noout", publish.outPath + "/atom.xml"]
        xmllint.standardError = FileHandle.nullDevice
        try xmllint.run()
        xmllint.waitUntilExit()
        #expect(xmllint.terminationStatus == 0)
    }

    @Test func indexHTMLShowsAShortPlainTextExcerptUnderEachTitle() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 1, items: 0)
        let long = "<p>" + (1...80).map { "word\($0)" }.joined(separator: " ") + "</p>"
        try publish.write(1, [
            entry("a", title: "Short", summary: "<p>Hello <b>bold</b> &amp; <a href=\"https://x.example/\">linked</a>.</p><p>Second &lt;para&gt;.</p>"),
            entry("b", title: "Long", pubdate: 900, summary: long),
            entry("c", title: "Empty", pubdate: 800, summary: ""),
        ])
        _ = try publish.publish()
        let page = try String(contentsOfFile: publish.outPath + "/index.html", encoding: .utf8)
        #expect(page.contains(#"<p class="excerpt">Hello bold &amp; linked. Second &lt;para&gt;.</p>"#))
        let excerpt = try #require(page.split(separator: "\n").first { $0.contains("Long") && $0.contains("excerpt") })
        #expect(excerpt.contains("word1 word2") && excerpt.contains("…") && !excerpt.contains("word80"))
        #expect(page.components(separatedBy: #"class="excerpt""#).count == 3, "no empty excerpt for an empty summary")
    }

    @Test func aReaderPollingDuringPublicationNeverSeesABrokenManifest() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 4, items: 3)
        _ = try publish.publish()
        let checker = ManifestChecker(directory: publish.outPath)
        let reader = Thread { checker.poll() }
        reader.start()
        for round in 0..<25 {
            try publish.write(Int64(round % 4 + 1), [entry("r\(round)", title: "round \(round)")])
            _ = try publish.publish()
        }
        checker.stop()
        while !checker.finished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(checker.checks > 10)
        #expect(checker.failures.isEmpty, "\(checker.failures.prefix(3))")
    }

    @Test func aSnapshotTakenWhileUpdatesWriteIsNeverHalfATransaction() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 1, items: 0)
        let path = publish.harness.databasePath(1)
        let catalog = publish.harness.catalog
        let go = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let writer = Thread {
            go.wait()
            // Ten entries per transaction, as a concurrent rss-update would write them, with a
            // pause between transactions as between an update's feeds: back to back, the
            // writer could take the lock again each time before the snapshot's busy-wait
            // retried, and finish all 60 before the first snapshot (1 run in 5).
            for round in 0..<60 {
                try? PublishHarness.write(1, (0..<10).map { entry("w\(round)-\($0)") }, at: path, catalog: catalog, now: 5_000 + Int64(round))
                usleep(3_000)
            }
            finished.signal()
        }
        writer.start()
        var counts: [Int] = []
        go.signal()
        repeat {
            _ = try publish.publish()
            counts.append(try publish.manifest().feeds.first?.itemCount ?? 0)
        } while finished.wait(timeout: .now()) == .timedOut
        _ = try publish.publish()
        counts.append(try publish.manifest().feeds.first?.itemCount ?? 0)
        #expect(counts.last == 600)
        #expect(counts.allSatisfy { $0 % 10 == 0 }, "\(counts)")
        #expect(Set(counts).count > 1, "publication really overlapped the writes: \(counts)")
    }
}

