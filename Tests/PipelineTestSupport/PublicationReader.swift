import FeedBasics
import FeedPublishing
import Foundation

/// A format-2 publication read from a directory as a client reads it (the root, then each
/// feed's pointer and its first usable entry) and as the publisher remembers it (the shard's
/// record, named by the root).
public enum PublicationReader {
    public enum Problem: Error, CustomStringConvertible {
        case missing(String)
        case unusable(String)
        public var description: String {
            switch self {
            case .missing(let what): "missing: \(what)"
            case .unusable(let what): "unusable: \(what)"
            }
        }
    }

    public static func root(_ directory: String) throws -> PublicationRoot {
        try JSONDecoder().decode(PublicationRoot.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json")))
    }

    /// The record of `shard` the root names, its own entries given their publication id.
    public static func record(_ directory: String, shard: String = "1/1") throws -> Manifest {
        let root = try root(directory)
        guard let entry = root.shards[shard] else { throw Problem.missing("shard \(shard) in the root") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + entry.record)))
        guard SHA256.hexDigest(bytes).hasPrefix(entry.publication) else { throw Problem.unusable("\(entry.record)'s digest") }
        var record = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
        // Its feeds in its pages (issue 51), each checked by the SHA-256 the record gives.
        if let pages = record.feedPages {
            record.feeds = try pages.flatMap { page -> [PublishedFeed] in
                let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + page.file))
                guard SHA256.hexDigest([UInt8](data)) == page.sha256 else { throw Problem.unusable("\(page.file)'s digest") }
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                let feeds = try JSONSerialization.data(withJSONObject: object?["feeds"] ?? [])
                return try JSONDecoder().decode([PublishedFeed].self, from: feeds)
            }
        }
        for index in record.feeds.indices where record.feeds[index].entryPublication == nil {
            record.feeds[index].entryPublication = entry.publication
        }
        // Format 4 leaves out the stable names its feeds and catalog give, and the catalog
        // index's document, which the index's file holds (and its groups, the pages and runs).
        if (record.formatVersion ?? 0) >= 4 {
            let derived = record.feeds.map(\.name) + (record.catalog.map { [$0.name] } ?? [])
            if record.stableFiles != nil || !derived.isEmpty { record.stableFiles = Set((record.stableFiles ?? []) + derived).sorted() }
            if let index = record.catalogPages?.index {
                let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + index.file))
                guard SHA256.hexDigest([UInt8](data)) == index.sha256 else { throw Problem.unusable("\(index.file)'s digest") }
                let document = try JSONDecoder().decode(CatalogIndexDocument.self, from: data)
                record.catalogPages?.document = document
                // Its groups' pages and title runs (format 2 of the index), each group checked likewise.
                func group<Document: Decodable>(_ file: String, _ sha256: String, as: Document.Type) throws -> Document {
                    let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
                    guard SHA256.hexDigest([UInt8](data)) == sha256 else { throw Problem.unusable("\(file)'s digest") }
                    return try JSONDecoder().decode(Document.self, from: data)
                }
                record.catalogPages?.pages = try document.pageGroups.flatMap { try group($0.file, $0.sha256, as: CatalogPageGroupDocument.self).pages }
                record.catalogPages?.titles = try document.titleGroups.flatMap { try group($0.file, $0.sha256, as: CatalogTitleGroupDocument.self).chunks }
            }
        }
        return record
    }

    /// The pointer of feed `id`, when there is one.
    public static func pointer(_ directory: String, _ id: Int64) throws -> FeedPointer? {
        guard let data = FileManager.default.contents(atPath: directory + "/feed_\(id).json") else { return nil }
        return try JSONDecoder().decode(FeedPointer.self, from: data)
    }

    /// The client rule: the first entry whose shard is in the root, written by a generation
    /// before the root's entry of that shard or by the very publication it names.
    public static func usable(_ pointer: FeedPointer, in root: PublicationRoot) -> PointerEntry? {
        pointer.entries.first { entry in
            guard let shard = root.shards[entry.shard] else { return false }
            return entry.generation < shard.generation || (entry.generation == shard.generation && entry.publication == shard.publication)
        }
    }

    /// Every feed with a pointer in `directory`, with its usable entry for the root there
    /// (`nil`: not published for this root).
    public static func feeds(_ directory: String) throws -> [Int64: PointerEntry?] {
        let root = try root(directory)
        var feeds: [Int64: PointerEntry?] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            guard case .pointer(let id)? = PublishedName(fileName: name), let pointer = try pointer(directory, id) else { continue }
            guard pointer.feedID == id else { throw Problem.unusable("\(name) names feed \(pointer.feedID)") }
            feeds[id] = .some(usable(pointer, in: root))
        }
        return feeds
    }

    /// What is wrong with the publication in `directory` as a client sees it: the root's
    /// catalog and every pointer's usable entry (its snapshot and deltas) must name files that
    /// exist with the SHA-256 given; every pointer must have a usable entry.
    public static func problems(_ directory: String) -> [String] {
        var problems: [String] = []
        func check(_ file: String, _ sha256: String) {
            if sha256OfFile(directory + "/" + file) != sha256 { problems.append("\(file) missing or mismatched") }
        }
        do {
            let root = try root(directory)
            if let catalog = root.catalog { check(catalog.file, catalog.sha256) }
            for (id, entry) in try feeds(directory) {
                guard let entry else {
                    problems.append("feed \(id): no usable entry")
                    continue
                }
                check(entry.file, entry.sha256)
                for delta in entry.deltas { check(delta.file, delta.sha256) }
            }
        } catch {
            problems.append("unreadable publication: \(error)")
        }
        return problems
    }

    private static func sha256OfFile(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { SHA256.hexDigest([UInt8]($0)) }
    }
}
