import Foundation
import PipelineTestSupport
import TestSupport

/// The publication the client tests serve: publication format 2 (SPEC-41 §2–4) made from what
/// `PublishRun` wrote. While the publisher writes format 1, each of its publications is turned
/// here into a format-2 one by hand, from its real SQLite snapshots and deltas: the files copied
/// under content-addressed names, one pointer per feed (the new entry first, the entry it
/// replaces second; left as it was, bytes and ETag, when the feed did not change), a record, and
/// the root written last. Once the publisher writes format 2 itself, its directory is mirrored
/// as it is. Either way, the directory served holds a format-2 publication.
///
/// Nothing is ever removed from it (retired snapshots and the pointers of removed feeds stay,
/// as they do during a publisher's grace period): the client must follow the root and the
/// catalog, not what happens to be there.
final class Format2Publication {
    let source: String
    let served: TemporaryDirectory

    init(source: String) throws {
        self.source = source
        served = try TemporaryDirectory()
    }

    var path: String { served.url.path }

    /// Brings the served directory to the source's current publication.
    func update() throws {
        let manifest = try Self.readJSON(source + "/manifest.json")
        if manifest["format_version"] as? Int == 2 {
            try mirror()
            return
        }
        let generation = try Self.int(manifest["generation"], "generation")
        if FileManager.default.fileExists(atPath: path + "/manifest.json"),
            try Self.int(try Self.readJSON(path + "/manifest.json")["generation"], "generation") == generation
        {
            return
        }
        let record = try Data(contentsOf: URL(fileURLWithPath: source + "/manifest.json"))
        guard let recordHex = sha256(ofFile: source + "/manifest.json") else { throw FixtureProblem("no manifest.json") }
        let recordName = "publisher.1of1.\(recordHex).json"
        let publication = String(recordHex.prefix(16))
        try record.write(to: URL(fileURLWithPath: path + "/" + recordName))

        guard var catalog = manifest["catalog"] as? [String: Any] else { throw FixtureProblem("no catalog") }
        catalog["file"] = try copy(try Self.string(catalog["file"]), as: "all_feeds.", sha256: try Self.string(catalog["sha256"]), suffix: ".sqlite")
        catalog["source_fingerprint"] = nil
        for stable in ["all_feeds.sqlite", "atom.xml", "index.html"] where FileManager.default.fileExists(atPath: source + "/" + stable) {
            try? FileManager.default.removeItem(atPath: path + "/" + stable)
            try FileManager.default.copyItem(atPath: source + "/" + stable, toPath: path + "/" + stable)
        }

        for feed in manifest["feeds"] as? [[String: Any]] ?? [] {
            let id = try Self.int(feed["feedid"], "feedid")
            var entry = feed
            entry["history"] = nil
            entry["source_fingerprint"] = nil
            entry["feedid"] = nil
            entry["shard"] = "1/1"
            entry["generation"] = generation
            entry["publication"] = publication
            entry["file"] = try copy(try Self.string(feed["file"]), as: "feed_\(id).", sha256: try Self.string(feed["sha256"]), suffix: ".sqlite")
            var deltas = feed["deltas"] as? [[String: Any]] ?? []
            for index in deltas.indices {
                deltas[index]["file"] = try copy(
                    try Self.string(deltas[index]["file"]), as: "feed_\(id).", sha256: try Self.string(deltas[index]["sha256"]), suffix: ".delta.json")
            }
            entry["deltas"] = deltas
            try? FileManager.default.removeItem(atPath: path + "/feed_\(id).sqlite")
            try? FileManager.default.copyItem(atPath: source + "/feed_\(id).sqlite", toPath: path + "/feed_\(id).sqlite")
            try writePointer(id, newEntry: entry)
        }

        var root: [String: Any] = [
            "format": "feedmill-manifest", "format_version": 2, "generation": generation,
            "shards": ["1/1": ["generation": generation, "publication": publication, "record": recordName]],
            "catalog": catalog, "feed_pointer": "feed_{feedid}.json", "atom": "atom.xml", "index": "index.html",
        ]
        root["feeds"] = nil
        try Self.writeJSON(root, to: path + "/manifest.json")
    }

    /// The feed's pointer with `newEntry` first and the entry it replaces second; untouched
    /// (same bytes, same ETag) when the feed's published file did not change.
    private func writePointer(_ id: Int, newEntry: [String: Any]) throws {
        let name = path + "/feed_\(id).json"
        var entries = [newEntry]
        if FileManager.default.fileExists(atPath: name) {
            let pointer = try Self.readJSON(name)
            let previous = pointer["entries"] as? [[String: Any]] ?? []
            if let current = previous.first {
                if current["sha256"] as? String == newEntry["sha256"] as? String, current["version"] as? Int == newEntry["version"] as? Int {
                    return
                }
                entries.append(current)
            }
        }
        try Self.writeJSON(["format": "feedmill-feed-pointer", "format_version": 2, "feedid": id, "entries": entries], to: name)
    }

    /// Copies a file of the source under its content-addressed name (once: same name, same bytes).
    private func copy(_ file: String, as prefix: String, sha256: String, suffix: String) throws -> String {
        let name = prefix + sha256 + suffix
        if !FileManager.default.fileExists(atPath: path + "/" + name) {
            try FileManager.default.copyItem(atPath: source + "/" + file, toPath: path + "/" + name)
        }
        return name
    }

    /// The publisher's own format-2 directory, copied as it is (names it removed are removed).
    private func mirror() throws {
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: source).filter { !$0.hasPrefix(".") })
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where !names.contains(name) {
            try FileManager.default.removeItem(atPath: path + "/" + name)
        }
        // The root last, as a publisher commits it.
        for name in names.filter({ $0 != "manifest.json" }).sorted() + (names.contains("manifest.json") ? ["manifest.json"] : []) {
            let from = source + "/" + name, to = path + "/" + name
            if FileManager.default.contents(atPath: to) == FileManager.default.contents(atPath: from) { continue }
            try? FileManager.default.removeItem(atPath: to)
            try FileManager.default.copyItem(atPath: from, toPath: to)
        }
    }

    // MARK: - JSON as the publisher writes it (sorted keys, pretty, `/` unescaped, a final newline)

    static func readJSON(_ path: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] else {
            throw FixtureProblem("\(path) is not a JSON object")
        }
        return object
    }

    static func writeJSON(_ object: [String: Any], to path: String) throws {
        var data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        data.append(0x0A)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static func int(_ value: Any?, _ field: String) throws -> Int {
        guard let number = value as? NSNumber else { throw FixtureProblem("\(field) is not a number") }
        return number.intValue
    }

    static func string(_ value: Any?) throws -> String {
        guard let string = value as? String else { throw FixtureProblem("expected a string, got \(String(describing: value))") }
        return string
    }
}
