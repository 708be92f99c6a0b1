import Foundation
import GRDB

/// A format-2 publication as the tests read it, independently of the client: the root, the
/// feeds its catalog lists, and for each the first pointer entry usable for the root (the
/// rule of SPEC-41 §4, written again here).
struct PublishedView {
    struct File {
        var feedID: Int64?
        var name: String
        var file: String
        var version: Int
        var size: Int
        var sha256: String
        var contentDigest: String?
        var deltas: [(fromVersion: Int, file: String)]
    }

    let generation: Int
    let catalog: File
    /// The catalog's feeds that have a usable entry, by feedid order.
    let feeds: [File]
    /// The catalog's feeds without one (no pointer, or none usable yet).
    let unpublished: [Int64]

    func feed(_ id: Int64) -> File? { feeds.first { $0.feedID == id } }

    init(directory: String) throws {
        let root = try Format2Publication.readJSON(directory + "/manifest.json")
        guard root["format_version"] as? Int == 2 else { throw FixtureProblem("the served root is not format 2") }
        generation = try Format2Publication.int(root["generation"], "generation")
        guard let catalogEntry = root["catalog"] as? [String: Any] else { throw FixtureProblem("no catalog") }
        catalog = try Self.file(catalogEntry, feedID: nil)
        let shards = root["shards"] as? [String: [String: Any]] ?? [:]
        let queue = try DatabaseQueue(path: directory + "/" + catalog.file, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let listed = try queue.read { db in try Int64.fetchAll(db, sql: "SELECT feedid FROM feeds ORDER BY feedid") }
        try queue.close()
        var feeds: [File] = [], unpublished: [Int64] = []
        for id in listed {
            let pointerPath = directory + "/feed_\(id).json"
            guard FileManager.default.fileExists(atPath: pointerPath) else {
                unpublished.append(id)
                continue
            }
            let entries = try Format2Publication.readJSON(pointerPath)["entries"] as? [[String: Any]] ?? []
            let usable = entries.first { entry in
                guard let shard = entry["shard"] as? String, let commit = shards[shard], let generation = entry["generation"] as? Int,
                    let committed = commit["generation"] as? Int
                else { return false }
                return generation < committed || (generation == committed && entry["publication"] as? String == commit["publication"] as? String)
            }
            guard let usable else {
                unpublished.append(id)
                continue
            }
            feeds.append(try Self.file(usable, feedID: id))
        }
        self.feeds = feeds
        self.unpublished = unpublished
    }

    private static func file(_ entry: [String: Any], feedID: Int64?) throws -> File {
        File(
            feedID: feedID, name: try Format2Publication.string(entry["name"]), file: try Format2Publication.string(entry["file"]),
            version: try Format2Publication.int(entry["version"], "version"), size: try Format2Publication.int(entry["size"], "size"),
            sha256: try Format2Publication.string(entry["sha256"]), contentDigest: entry["content_digest"] as? String,
            deltas: try (entry["deltas"] as? [[String: Any]] ?? []).map {
                (try Format2Publication.int($0["from_version"], "from_version"), try Format2Publication.string($0["file"]))
            })
    }
}
