import FeedBasics
import FeedModel
import FeedPublishing
@testable import FeedStorage
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// The publication contract (docs/client-contract.md): format fields, content digests checked
/// by an implementation of their own (Scripts/content-digest), the JSON Schemas checked by a
/// real validator (Scripts/validate-contract, python3-jsonschema), schema version rises, and
/// manifests written before any of it.
@Suite("The client contract", .serialized)
struct ContractTests {
    @Test func everyPublishedSnapshotHasTheDigestAnotherImplementationComputes() throws {
        let publish = try PublishHarness()
        _ = try publish.harness.add(["https://feeds.example/1.xml", "https://feeds.example/2.xml"])
        // Ids ordered by their UTF-8 bytes (upper case before lower, then non-ASCII), text with
        // quotes, line breaks and non-ASCII, empty text, negative and NULL values.
        let tricky = [
            Entry(
                id: "éclair", idSource: .native, permalink: nil, title: "Crème \"brûlée\"\nsecond line", summary: SafeHTML(""),
                pubdate: -86_400, updated: nil, author: nil),
            Entry(
                id: "Zebra", idSource: .native, permalink: "https://site.example/z?a=1&b=2", title: "日本語 🦓", summary: SafeHTML("<p>x</p>"),
                pubdate: 0, updated: 1_700_000_000, author: "Ann, Bob"),
            Entry(id: "apple", idSource: .native, permalink: nil, title: "", summary: SafeHTML("<p>\t</p>"), pubdate: nil, updated: nil, author: nil),
        ]
        try publish.write(1, tricky)
        try publish.write(2, [entry("only")])
        let contract = try ContractArchive()
        _ = try publish.publish()
        try contract.keep(publication: publish.outPath, label: "first")
        try publish.write(1, [entry("Zebra", title: "changed"), entry("new")])
        _ = try publish.publish()
        try contract.keep(publication: publish.outPath, label: "second")
        let manifest = try publish.manifest()
        #expect(manifest.format == "feedmill-publisher-record" && manifest.formatVersion == Manifest.recordFormatVersion)
        let root = try publish.root()
        #expect(root.format == "feedmill-manifest" && root.formatVersion == 2)
        #expect(manifest.feeds.map(\.deltas.count) == [1, 0])
        #expect(Set(manifest.feeds.compactMap(\.contentDigest)).count == 2, "two feeds, two digests")
        #expect(contract.digestCount == 8, "3 snapshots, then 3, a delta, and feed 1's previous entry, still usable")
        let problems = try contract.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func aDigestThatDoesNotMatchTheRowsIsFound() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 1, items: 2)
        _ = try publish.publish()
        let stated = try StatedSnapshot(publication: publish.outPath, feedID: 1)
        let before = try Snapshot.contentDigest(ofSnapshot: stated.path)
        let queue = try DatabaseQueue(path: stated.path)
        try queue.write { db in try db.execute(sql: "UPDATE items SET title = title || '.' WHERE id = (SELECT MIN(id) FROM items)") }
        try queue.close()
        #expect(try Snapshot.contentDigest(ofSnapshot: stated.path) != before)
        // Its sha256 and size restated (and its name, when content-addressed): only the digest is wrong.
        let changed = try stated.restate()
        let contract = try ContractArchive()
        try contract.keep(publication: publish.outPath, label: "changed by hand")
        let problems = try contract.problems()
        #expect(problems.count == 1 && problems[0].contains(changed), "\(problems)")
    }

    /// Publications of both formats built by hand from the contract (Python's sqlite3, no
    /// Feedmill code: Scripts/contract_examples.py), valid and broken: the validator accepts
    /// exactly the valid ones and rejects each broken one for its own reason.
    @Test func theValidatorRejectsWhatBreaksTheContract() throws {
        let result = try ContractCheck.run(script: "validate-contract", ["--self-test"])
        #expect(result.status == 0, "\(result.output)")
        let accepted = ["format-2", "format-2-sharded", "format-1", "files: manifests, pointer, delta"]
        // Format 2: a root, pointers and files that break the contract.
        let rejectedPublications = [
            "pointer-feedid-differs-from-name", "usable-entry-names-a-missing-snapshot", "upper-case-hex", "name-hex-is-not-the-sha256",
            "wrong-size", "in-flight-entry-taken-as-usable", "loser-entry-taken-as-usable", "another-feeds-file", "another-feeds-name",
            "delta-to-another-version", "delta-from-another-version", "delta-to-another-digest", "delta-row-too-short",
            "delta-id-upserted-and-deleted", "delta-of-another-feed", "delta-missing", "missing-catalog", "catalog-feed-count",
            "catalog-hex-is-not-the-sha256", "record-of-another-shard", "publication-not-the-records", "shard-generation-above-the-root",
            "unknown-format-version", "root-without-shards", "root-without-catalog", "entries-not-newest-first", "item-count",
            "schema-version", "pointer-not-json", "pointer-without-entries", "pointer-of-another-format", "snapshot-path-outside",
            "delta-name-upper-hex", "publication-short",
            // The catalog's index for browsing (format 2 of the index, issue 51).
            "catalog-index-format-1", "catalog-page-of-another-group", "catalog-feed-of-another-page", "catalog-group-count",
            "catalog-page-missing", "catalog-titles-out-of-order", "catalog-title-missing", "catalog-run-too-long",
            "catalog-title-group-first-key",
            "format1-missing-snapshot", "format1-missing-history", "format1-delta-of-another-version",
        ]
        // The format-1 manifests and deltas refused before format 2, validated as files.
        let rejectedFiles = [
            "no-digest.manifest.json", "upper-hex.manifest.json", "format-2.manifest.json", "other-format.manifest.json",
            "no-format.manifest.json", "generation-text.manifest.json", "generation-past-2-53.manifest.json", "negative-size.manifest.json",
            "short-digest.manifest.json", "path-delta.manifest.json", "real-value.delta.json", "no-schema.delta.json",
            "bad-digest.delta.json", "id-not-first.delta.json",
        ]
        for name in accepted { #expect(result.output.contains("self-test: accepted \(name)\n"), "\(name) not accepted: \(result.output)") }
        for name in rejectedPublications + rejectedFiles.map({ "file " + $0 }) {
            #expect(result.output.contains("self-test: rejected \(name): "), "\(name) not rejected: \(result.output)")
        }
        let total = "self-test: \(accepted.count) valid accepted, \(rejectedPublications.count + rejectedFiles.count) broken rejected, 0 failed"
        #expect(result.output.contains(total), "\(result.output)")
    }

    /// The independent digest check finds one changed row, whether in a snapshot, in a delta or
    /// in the catalog, though every file's name, sha256 and size agree with it.
    @Test func theDigestCheckFindsAChangedRowWhereverItIs() throws {
        let result = try ContractCheck.run(script: "content-digest", ["--self-test"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("self-test: format-2: 7 content digests as stated"), "\(result.output)")
        #expect(result.output.contains("self-test: format-1: 4 content digests as stated"), "\(result.output)")
        for name in ["changed-snapshot", "changed-delta", "changed-catalog"] {
            #expect(result.output.contains("self-test: \(name): found: "), "\(name) not found: \(result.output)")
        }
        #expect(result.output.contains("self-test: 0 failed"), "\(result.output)")
    }

    /// A real publication's root, pointer and delta validate as files; each broken copy of one is
    /// refused by the validator with its own path.
    @Test func brokenCopiesOfARealPublicationsFilesAreRefused() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 2)
        _ = try publish.publish()
        try publish.write(1, [entry("added")])
        _ = try publish.publish()
        let manifestPath = publish.outPath + "/manifest.json"
        let pointerPath = publish.outPath + "/feed_1.json"
        let deltaPath = publish.outPath + "/" + (try #require(try publish.manifest().feeds[0].deltas.first)).file
        let scratch = try TemporaryDirectory()
        var broken: [String] = []
        func variant(_ source: String, _ name: String, _ change: (inout [String: Any]) -> Void) throws {
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source))) as? [String: Any])
            change(&object)
            let path = scratch.url.path + "/" + name
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
            broken.append(path)
        }
        func firstEntry(_ object: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
            var entries = object["entries"] as? [[String: Any]] ?? []
            change(&entries[0])
            object["entries"] = entries
        }
        try variant(pointerPath, "no-digest-feed_1.json") { object in firstEntry(&object) { $0["content_digest"] = nil } }
        try variant(pointerPath, "upper-hex-feed_1.json") { object in
            firstEntry(&object) { $0["sha256"] = ($0["sha256"] as? String)?.uppercased() }
        }
        try variant(manifestPath, "format-3.manifest.json") { $0["format_version"] = 3 }
        try variant(manifestPath, "other-format.manifest.json") { $0["format"] = "something-else" }
        try variant(manifestPath, "no-format.manifest.json") { $0["format"] = nil }
        try variant(manifestPath, "generation-text.manifest.json") { $0["generation"] = "2" }
        try variant(manifestPath, "generation-past-2-53.manifest.json") { $0["generation"] = 9_007_199_254_740_993 as Int64 }
        try variant(manifestPath, "negative-size.manifest.json") { object in
            var catalog = object["catalog"] as? [String: Any] ?? [:]
            catalog["size"] = -1
            object["catalog"] = catalog
        }
        try variant(pointerPath, "short-digest-feed_1.json") { object in firstEntry(&object) { $0["content_digest"] = "sha256:abc" } }
        try variant(pointerPath, "path-delta-feed_1.json") { object in
            firstEntry(&object) { entry in
                var deltas = entry["deltas"] as? [[String: Any]] ?? []
                deltas[0]["file"] = "../victim.delta.json"
                entry["deltas"] = deltas
            }
        }
        try variant(deltaPath, "real-value.delta.json") { object in
            var rows = object["upserts"] as? [[Any]] ?? []
            rows[0][3] = 1.5
            object["upserts"] = rows
        }
        try variant(deltaPath, "no-schema.delta.json") { $0["schema_version"] = nil }
        try variant(deltaPath, "bad-digest.delta.json") { $0["to_content_digest"] = "sha1:00" }
        try variant(deltaPath, "id-not-first.delta.json") { object in
            var columns = object["columns"] as? [String] ?? []
            columns.swapAt(0, 1)
            object["columns"] = columns
        }
        let valid = [manifestPath, pointerPath, deltaPath]
        let accepted = try ContractCheck.validate(valid)
        #expect(accepted.status == 0, "\(accepted.output)")
        let rejected = try ContractCheck.validate(valid + broken)
        #expect(rejected.status == 1)
        for path in broken {
            #expect(rejected.output.contains(path + ":"), "\((path as NSString).lastPathComponent) not rejected: \(rejected.output)")
        }
        #expect(rejected.output.contains("checked \(valid.count + broken.count) file(s): \(broken.count) invalid"), "\(rejected.output)")
    }

    @Test func theJSONColumnsOfADeltaAreValidatedAndMustBeCanonical() throws {
        let scratch = try TemporaryDirectory()
        let digest = "sha256:" + String(repeating: "0", count: 64)
        func delta(_ name: String, _ value: String) throws -> String {
            let object: [String: Any] = [
                "format": "feedmill-delta", "format_version": 1, "feedid": 1, "from_version": 1, "to_version": 2,
                "schema_version": 2, "to_content_digest": digest,
                "columns": ["id", "enclosures_json", "categories_json", "authors_json"],
                "upserts": [["a", value, #"[{"term":"swift","label":"Swift","scheme":"https://s.example/"}]"#, #"[{"name":"Ann","email":"a@b.c"}]"#]],
                "deletes": [],
            ]
            let path = scratch.url.path + "/" + name + ".delta.json"
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
            return path
        }
        let good = try delta("good", #"[{"url":"https://cdn.example/a/b.mp3","type":"audio/mpeg","length":1234,"duration":61},{"url":"http://x.example/é\n"}]"#)
        let accepted = try ContractCheck.validate([good])
        #expect(accepted.status == 0, "\(accepted.output)")
        let bad = [
            try delta("spaces", #"[{"url": "https://cdn.example/a.mp3"}]"#),
            try delta("escaped-slash", #"[{"url":"https:\/\/cdn.example\/a.mp3"}]"#),
            try delta("null-key", #"[{"url":"https://cdn.example/a.mp3","type":null}]"#),
            try delta("no-url", #"[{"type":"audio/mpeg"}]"#),
            try delta("javascript-url", #"[{"url":"javascript:alert(1)"}]"#),
            try delta("empty-list", "[]"),
            try delta("not-json", "[{"),
            try delta("length-text", #"[{"url":"https://cdn.example/a.mp3","length":"12"}]"#),
        ]
        let rejected = try ContractCheck.validate(bad)
        #expect(rejected.status == 1)
        for path in bad {
            #expect(rejected.output.contains(path + ":"), "\((path as NSString).lastPathComponent) not rejected: \(rejected.output)")
        }
    }

    @Test func aManifestFromBeforeDigestsGainsThemWithoutNewVersions() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 3)
        _ = try publish.publish()
        let original = try publish.manifest()
        // As a format-1 publisher before this format wrote it: the record as its manifest (and
        // the copy it kept), without format fields or content digests.
        let legacy = try Self.formatOne(from: publish.outPath, removing: ["format", "format_version", "content_digest"])
        for name in ["manifest.json", ".feedmill-publisher.json"] { try legacy.write(to: URL(fileURLWithPath: publish.outPath + "/" + name)) }
        let stripped = try JSONDecoder().decode(Manifest.self, from: legacy)
        #expect(stripped.formatVersion == nil && stripped.feeds.allSatisfy { $0.contentDigest == nil } && stripped.catalog?.contentDigest == nil)
        // Publishing feed 1 alone: feed 2, carried over as it is, gains its digest too.
        let report = try publish.publish(only: [1])
        #expect(report.feedsWritten == 0 && report.generation == 2, "only the record, the pointers and the root are written again")
        let upgraded = try publish.manifest()
        #expect(upgraded.format == "feedmill-publisher-record" && upgraded.formatVersion == Manifest.recordFormatVersion)
        #expect(upgraded.feeds.map(\.version) == original.feeds.map(\.version) && upgraded.catalog?.version == original.catalog?.version)
        #expect(upgraded.feeds.map(\.contentDigest) == original.feeds.map(\.contentDigest))
        #expect(upgraded.catalog?.contentDigest == original.catalog?.contentDigest)
        #expect(try publish.publish().unchanged, "and then nothing more")
        #expect(!FileManager.default.fileExists(atPath: publish.outPath + "/.feedmill-publisher.json"), "format 1's record is retired")
        let contract = try ContractArchive()
        try contract.keep(publication: publish.outPath, label: "upgraded")
        let problems = try contract.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func aRootOfAFormatVersionThisPublisherDoesNotKnowIsNotPublishedOver() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 1, items: 1)
        _ = try publish.publish()
        try editJSON(publish.outPath + "/manifest.json") { $0["format_version"] = 3 }
        let before = try publish.listing()
        let error = #expect(throws: PublishError.self) { try publish.publish() }
        #expect(error?.description.contains("format_version 3") == true && error?.description.contains("--recover") == true, "\(String(describing: error))")
        #expect(try publish.listing() == before)
    }

    /// What a rise of the published schema version does, whatever the numbers: the published
    /// versions are made to look one schema version older (the record, and each file's
    /// `PRAGMA user_version`), as an older Feedmill left them.
    @Test func aSchemaVersionRiseRepublishesEverythingWithNoDeltaAcrossIt() throws {
        let publish = try PublishHarness()
        publish.retained = 3
        try publish.seed(feeds: 3, items: 2)
        _ = try publish.publish()
        try publish.write(2, [entry("second")])
        _ = try publish.publish()
        let old = try publish.manifest()
        #expect(old.feeds.map(\.version) == [1, 2, 1])
        let older = Snapshot.feedSchemaVersion - 1
        // Each file an older Feedmill wrote has its own bytes, so its own content-addressed name:
        // the edited file is renamed to its new sha256 and the record states it so.
        var restated: [String: (name: String, sha256: String, size: Int)] = [:]
        for file in Set(old.feeds.flatMap({ [$0.file] + $0.history.map(\.file) })) {
            try setUserVersion(publish.outPath + "/" + file, older)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/" + file))
            let digest = SHA256.hexDigest([UInt8](bytes))
            let feedID = try #require(file.split(separator: ".").first)
            let name = "\(feedID).\(digest).sqlite"
            try FileManager.default.moveItem(atPath: publish.outPath + "/" + file, toPath: publish.outPath + "/" + name)
            restated[file] = (name, digest, bytes.count)
        }
        // Its deltas were of that schema too.
        for file in Set(old.feeds.flatMap({ $0.deltas.map(\.file) })) {
            let path = publish.outPath + "/" + file
            var delta = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            delta["schema_version"] = older
            let bytes = try JSONSerialization.data(withJSONObject: delta, options: [.sortedKeys])
            let digest = SHA256.hexDigest([UInt8](bytes))
            let feedID = try #require(file.split(separator: ".").first)
            let name = "\(feedID).\(digest).delta.json"
            try bytes.write(to: URL(fileURLWithPath: publish.outPath + "/" + name))
            try FileManager.default.removeItem(atPath: path)
            restated[file] = (name, digest, bytes.count)
        }
        try Self.editRecord(in: publish.outPath) { object in
            var feeds = object["feeds"] as? [[String: Any]] ?? []
            for index in feeds.indices { feeds[index]["schema_version"] = older }
            object["feeds"] = feeds
            var catalog = object["catalog"] as? [String: Any] ?? [:]
            catalog["schema_version"] = Snapshot.catalogSchemaVersion - 1
            object["catalog"] = catalog
            object = Self.restating(object, restated) as? [String: Any] ?? object
        }
        let contract = try ContractArchive()
        let report = try publish.publish()
        try contract.keep(publication: publish.outPath, label: "after the rise")
        #expect(report.feedsWritten == 3 && report.deltasWritten == 0, "every feed again, though no source changed")
        let risen = try publish.manifest()
        #expect(risen.feeds.map(\.version) == [2, 3, 2])
        #expect(risen.feeds.allSatisfy { $0.schemaVersion == Snapshot.feedSchemaVersion && $0.deltas.isEmpty })
        #expect(risen.feeds.map { $0.history.map(\.version) } == [[1], [2, 1], [1]], "the old versions are still served")
        #expect(risen.catalog?.version == (old.catalog?.version ?? 0) + 1 && risen.catalog?.schemaVersion == Snapshot.catalogSchemaVersion)
        #expect(risen.feeds.map(\.contentDigest) == old.feeds.map(\.contentDigest), "same rows, same digest")
        for feed in risen.feeds {
            #expect(sha256(ofFile: publish.outPath + "/" + feed.file) == feed.sha256, "feed \(feed.feedID): the new version's bytes at its name")
        }
        // The next change gets a delta from the version of this schema only.
        try publish.write(2, [entry("third")])
        _ = try publish.publish()
        try contract.keep(publication: publish.outPath, label: "a change after the rise")
        let next = try publish.manifest()
        #expect(next.feeds[1].version == 4 && next.feeds[1].history.map(\.version) == [3, 2, 1])
        #expect(next.feeds[1].deltas.map(\.fromVersion) == [3])
        let problems = try contract.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // Retired as usual: once out of every history, the old schema's files go.
        for round in 0..<3 {
            try publish.write(2, [entry("round \(round)")])
            _ = try publish.publish()
        }
        #expect(!FileManager.default.fileExists(atPath: publish.outPath + "/" + old.feeds[1].file))
        #expect(!FileManager.default.fileExists(atPath: publish.outPath + "/" + (try #require(old.feeds[1].deltas.first)).file))
    }

    /// `value` with every object that names a renamed file (`"file"`) stating its new name,
    /// sha256 and size (where it states a size), at any depth.
    static func restating(_ value: Any, _ renamed: [String: (name: String, sha256: String, size: Int)]) -> Any {
        if let array = value as? [Any] { return array.map { restating($0, renamed) } }
        guard var object = value as? [String: Any] else { return value }
        for (key, inner) in object { object[key] = restating(inner, renamed) }
        if let file = object["file"] as? String, let new = renamed[file] {
            object["file"] = new.name
            object["sha256"] = new.sha256
            if object["size"] != nil { object["size"] = new.size }
        }
        return object
    }

    /// The record the root names rewritten by `change` and put under its new digest, which the
    /// root is edited to name, as an older publisher could have written it.
    /// The record the root names, as its file holds it (its feeds in their pages).
    static func recordObject(in directory: String) throws -> [String: Any] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))) as? [String: Any])
        let name = try #require((root["shards"] as? [String: [String: Any]])?["1/1"]?["record"] as? String)
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))) as? [String: Any])
    }

    static func editRecord(in directory: String, _ change: (inout [String: Any]) -> Void) throws {
        let rootPath = directory + "/manifest.json"
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: rootPath))) as? [String: Any])
        var shards = try #require(root["shards"] as? [String: [String: Any]])
        let name = try #require(shards["1/1"]?["record"] as? String)
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))) as? [String: Any])
        // The feeds from its pages, inline (a record the publisher reads either way).
        record = try inlined(record, in: directory)
        change(&record)
        let bytes = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
        let digest = SHA256.hexDigest([UInt8](bytes))
        try bytes.write(to: URL(fileURLWithPath: directory + "/publisher.1of1.\(digest).json"))
        shards["1/1"]?["record"] = "publisher.1of1.\(digest).json"
        shards["1/1"]?["publication"] = String(digest.prefix(16))
        root["shards"] = shards
        try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: URL(fileURLWithPath: rootPath))
    }

    /// `record` with the feeds of its pages inline and no `feed_pages`, and every stable name
    /// in `stable_files` (a record of format 4 leaves out those its feeds and catalog give):
    /// a record an earlier format could have held too, once its `format_version` says so.
    static func inlined(_ record: [String: Any], in directory: String) throws -> [String: Any] {
        var record = record
        if let pages = record["feed_pages"] as? [[String: Any]] {
            record["feeds"] = try pages.flatMap { page -> [Any] in
                let file = try #require(page["file"] as? String)
                let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))) as? [String: Any]
                return document?["feeds"] as? [Any] ?? []
            }
            record["feed_pages"] = nil
        }
        let feeds = record["feeds"] as? [[String: Any]] ?? []
        let catalogName = (record["catalog"] as? [String: Any])?["name"] as? String
        let derived = feeds.compactMap { $0["name"] as? String } + (catalogName.map { [$0] } ?? [])
        if record["stable_files"] != nil || !derived.isEmpty {
            record["stable_files"] = Set((record["stable_files"] as? [String] ?? []) + derived).sorted()
        }
        return record
    }

    /// The record the root names as a format-1 manifest: without format 2's fields and `removing`.
    static func formatOne(from directory: String, removing keys: Set<String>) throws -> Data {
        let name = try #require(try PublicationReader.root(directory).shards["1/1"]?.record)
        // A record's feeds in its pages (issue 51): format 1 had them inline.
        let record = try inlined(
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))) as? [String: Any]),
            in: directory)
        let formatTwo: Set<String> = [
            "shard", "retired", "root_catalogs", "entry_generation", "entry_publication", "previous_entry", "newest_entries", "catalog_pages",
            "changes", "pending_feeds", "feed_pages",
        ]
        return try JSONSerialization.data(withJSONObject: removing(keys.union(formatTwo), from: record), options: [.sortedKeys])
    }

    /// docs/client-contract.md's worked example of the content digest, and its example root,
    /// pointer and delta, hold: the digest as Feedmill and as Scripts/content-digest compute it, the
    /// byte string shown hashed, the examples valid against the schemas.
    @Test func theContractPagesExamplesHold() throws {
        let page = try String(contentsOfFile: ContractCheck.repository + "/docs/client-contract.md", encoding: .utf8)
        let blocks = Self.fencedBlocks(page)
        let sqlIndex = try #require(blocks.firstIndex { $0.hasPrefix("-- content-digest example\n") })
        let documented = try #require(page.firstMatch(of: /whose content digest is\s+`(sha256:[0-9a-f]{64})`/)).1
        let scratch = try TemporaryDirectory()
        let database = scratch.url.path + "/example.sqlite"
        let queue = try DatabaseQueue(path: database)
        try queue.write { db in try db.execute(sql: blocks[sqlIndex]) }
        try queue.close()
        #expect(try Snapshot.contentDigest(ofSnapshot: database) == String(documented))
        #expect(try ContractCheck.contentDigests([(database, nil)]) == [String(documented)])
        #expect("sha256:" + SHA256.hexDigest(blocks[sqlIndex + 1]) == String(documented), "the byte string shown")
        let jsonBlocks = blocks.filter { $0.hasPrefix("{") }
        #expect(jsonBlocks.count == 3, "the root, a pointer, a delta")
        var examples: [String] = []
        for (index, (block, name)) in zip(jsonBlocks, ["manifest.json", "feed_2.json", "example.delta.json"]).enumerated() {
            let path = scratch.url.path + "/\(index)-" + name
            try block.write(toFile: path, atomically: false, encoding: .utf8)
            examples.append(path)
        }
        let validation = try ContractCheck.validate(examples)
        #expect(validation.status == 0, "\(validation.output)")
        #expect(validation.output.contains("checked 3 file(s): 0 invalid"), "\(validation.output)")
    }

    /// The contents of every fenced code block of a Markdown page, in order.
    static func fencedBlocks(_ page: String) -> [String] {
        var blocks: [String] = []
        var current: String?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let finished = current {
                    blocks.append(finished)
                    current = nil
                } else {
                    current = ""
                }
            } else if current != nil {
                current? += line + "\n"
            }
        }
        return blocks
    }

    private func setUserVersion(_ path: String, _ version: Int) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = \(version)") }
        try queue.close()
    }

    static func removing(_ keys: Set<String>, from value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !keys.contains($0.key) }.mapValues { removing(keys, from: $0) }
        }
        if let array = value as? [Any] { return array.map { removing(keys, from: $0) } }
        return value
    }

    static func removing(_ keys: Set<String>, from object: [String: Any]) -> [String: Any] {
        (removing(keys, from: object as Any) as? [String: Any]) ?? object
    }
}

/// Rewrites a JSON object file, as a person or an older publisher might have left it.
func editJSON(_ path: String, _ change: (inout [String: Any]) -> Void) throws {
    let url = URL(fileURLWithPath: path)
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    change(&object)
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url)
}

/// The snapshot a publication names for a feed (the first usable entry of its pointer in
/// format 2, its manifest entry in format 1), to change by hand and then state again.
struct StatedSnapshot {
    let publication: String
    let feedID: Int
    /// The JSON file that states it, and the entry's place in it.
    private let statement: String
    private let isFormat2: Bool
    let name: String
    var path: String { publication + "/" + name }

    init(publication: String, feedID: Int) throws {
        self.publication = publication
        self.feedID = feedID
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: publication + "/manifest.json"))) as? [String: Any])
        isFormat2 = root["format_version"] as? Int == 2
        statement = publication + (isFormat2 ? "/feed_\(feedID).json" : "/manifest.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: statement))) as? [String: Any])
        let entry = isFormat2
            ? (object["entries"] as? [[String: Any]])?.first
            : (object["feeds"] as? [[String: Any]])?.first { $0["feedid"] as? Int == feedID }
        name = try #require(entry?["file"] as? String)
    }

    /// States the file's bytes as they are now (sha256, size; a content-addressed name renamed
    /// to its new sha256): returns its name.
    func restate() throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let sha256 = SHA256.hexDigest([UInt8](bytes))
        var newName = name
        if isFormat2 {
            newName = "feed_\(feedID).\(sha256).sqlite"
            try FileManager.default.moveItem(atPath: path, toPath: publication + "/" + newName)
        }
        try editJSON(statement) { object in
            let key = isFormat2 ? "entries" : "feeds"
            var entries = object[key] as? [[String: Any]] ?? []
            guard let index = entries.firstIndex(where: { $0["file"] as? String == name }) else { return }
            entries[index]["file"] = newName
            entries[index]["sha256"] = sha256
            entries[index]["size"] = bytes.count
            object[key] = entries
        }
        return newName
    }
}
