import FeedBasics
import FeedObjectStorage
import Foundation
import PipelineTestSupport
import TestSupport

/// What a client finds in a bucket, checked from the root down as a client reads it: every
/// object the root names (and, in format 2, the records, the catalog's feeds' pointers and the
/// entries they give) is there with the sha256 it is named with. Reads both formats: the
/// format-1 manifest this branch's publisher writes and SPEC-41's format-2 root.
struct BucketCheck {
    let s3: S3Client
    let prefix: String

    init(_ server: S3TestServer, prefix: String = "site") throws {
        s3 = try bystander(server)
        self.prefix = prefix
    }

    private func key(_ name: String) -> String { prefix + "/" + name }

    func object(_ name: String) throws -> [UInt8]? { try s3.get(key(name))?.body }

    func root() throws -> [String: Any]? {
        guard let bytes = try object("manifest.json") else { return nil }
        return try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    }

    func generation() throws -> Int { (try root()?["generation"] as? Int) ?? 0 }

    /// A pointer's entries the root's `shards` vouch for (SPEC-41 §4), in the pointer's order:
    /// the first is the one a client takes.
    static func usableEntries(_ pointer: [String: Any], shards: [String: [String: Any]]) -> [[String: Any]] {
        (pointer["entries"] as? [[String: Any]] ?? []).filter { entry in
            guard let shard = entry["shard"] as? String, let current = shards[shard],
                let generation = entry["generation"] as? Int, let currentGeneration = current["generation"] as? Int
            else { return false }
            return generation < currentGeneration
                || (generation == currentGeneration && entry["publication"] as? String == current["publication"] as? String)
        }
    }

    /// The entry a client takes for feed `id` under the current root (its first usable one),
    /// nil when the feed is not published for it.
    func takenEntry(feed id: Int64) throws -> [String: Any]? {
        let shards = try root()?["shards"] as? [String: [String: Any]] ?? [:]
        guard let bytes = try object("feed_\(id).json"),
            let pointer = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { return nil }
        return Self.usableEntries(pointer, shards: shards).first
    }

    /// The `id`s of the items in the snapshot a client takes for feed `id`.
    func takenItemIDs(feed id: Int64) throws -> [String] {
        guard let file = try takenEntry(feed: id)?["file"] as? String, let bytes = try object(file) else { return [] }
        let scratch = try TemporaryDirectory()
        let path = scratch.url.path + "/feed.sqlite"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return try sqlite(path, "SELECT id FROM items").compactMap { $0.first ?? nil }
    }

    /// Problems a client would meet. With `complete`, every feed of the catalog must be
    /// published (after a run that finished); otherwise a feed may be "not yet published".
    func problems(complete: Bool) throws -> [String] {
        guard let root = try root() else { return complete ? ["no root"] : [] }
        var problems: [String] = []
        func expect(_ name: String?, _ sha256: String?) throws {
            guard let name else { problems.append("a name is missing in the root"); return }
            guard let bytes = try object(name) else { problems.append("\(name) is named but missing"); return }
            if let sha256, SHA256.hexDigest(bytes) != sha256 { problems.append("\(name) is not the bytes named") }
        }
        let catalog = root["catalog"] as? [String: Any]
        try expect(catalog?["file"] as? String, catalog?["sha256"] as? String)
        if (root["format_version"] as? Int ?? 1) >= 2 {
            let shards = root["shards"] as? [String: [String: Any]] ?? [:]
            for (_, shard) in shards { try expect(shard["record"] as? String, nil) }
            guard let catalogName = catalog?["file"] as? String, let catalogBytes = try object(catalogName) else { return problems }
            let scratch = try TemporaryDirectory()
            let path = scratch.url.path + "/catalog.sqlite"
            FileManager.default.createFile(atPath: path, contents: Data(catalogBytes))
            let ids = try sqlite(path, "SELECT feedid FROM feeds").compactMap { $0.first??.description }
            let pattern = root["feed_pointer"] as? String ?? "feed_{feedid}.json"
            for id in ids {
                let pointerName = pattern.replacingOccurrences(of: "{feedid}", with: id)
                guard let pointerBytes = try object(pointerName),
                    let pointer = try JSONSerialization.jsonObject(with: Data(pointerBytes)) as? [String: Any]
                else {
                    if complete { problems.append("feed \(id) has no pointer") }
                    continue
                }
                if "\(pointer["feedid"] ?? "")" != id { problems.append("\(pointerName) names feed \(pointer["feedid"] ?? "")") }
                let usable = Self.usableEntries(pointer, shards: shards)
                if usable.isEmpty {
                    if complete { problems.append("feed \(id) has no usable entry") }
                    continue
                }
                // Every usable entry, not only the first: a client holding an older root may
                // take the second one.
                for entry in usable {
                    try expect(entry["file"] as? String, entry["sha256"] as? String)
                    for delta in entry["deltas"] as? [[String: Any]] ?? [] { try expect(delta["file"] as? String, delta["sha256"] as? String) }
                }
            }
        } else {
            for feed in root["feeds"] as? [[String: Any]] ?? [] {
                try expect(feed["file"] as? String, feed["sha256"] as? String)
                for old in feed["history"] as? [[String: Any]] ?? [] { try expect(old["file"] as? String, old["sha256"] as? String) }
                for delta in feed["deltas"] as? [[String: Any]] ?? [] { try expect(delta["file"] as? String, delta["sha256"] as? String) }
            }
        }
        return problems
    }
}
