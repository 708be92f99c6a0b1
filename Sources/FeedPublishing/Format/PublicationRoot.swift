import FeedBasics
import Foundation

/// `manifest.json` in format 2: the one short-lived object a client reads first. It holds no
/// per-feed data (its size is O(shards), about 1 KB at any number of feeds): each shard's
/// generation and publication, which decide which entry of a feed's pointer is usable, and
/// the catalog. Committed last, by a conditional write
/// (``PublicationTarget/commitRoot(_:as:expecting:)``).
public struct PublicationRoot: Codable, Equatable, Sendable {
    public var format = Manifest.formatName
    public var formatVersion = Manifest.currentFormatVersion
    /// Raised by every commit of the root, whichever shard made it.
    public var generation: Int
    /// `K/N` → that shard's last committed publication. Only entries of one N.
    public var shards: [String: ShardEntry]
    public var catalog: RootCatalog?
    /// Where a feed's pointer is: `{feedid}` replaced by the feed id.
    public var feedPointer = RootNames.feedPointerTemplate
    public var atom: String?
    public var index: String?
    /// The catalog's pages and title index (issue 51), for browsing without the catalog:
    /// written by a publication of every feed; absent with shards, and before issue 51.
    public var catalogIndex: RootCatalogIndex?

    enum CodingKeys: String, CodingKey {
        case format, generation, shards, catalog, atom, index
        case formatVersion = "format_version"
        case feedPointer = "feed_pointer"
        case catalogIndex = "catalog_index"
    }

    public init(generation: Int = 0, shards: [String: ShardEntry] = [:], catalog: RootCatalog? = nil) {
        self.generation = generation
        self.shards = shards
        self.catalog = catalog
        atom = PublishedName.atom.fileName
        index = PublishedName.index.fileName
    }

    /// The root's bytes: sorted keys, pretty-printed, `/` unescaped, a trailing newline (as
    /// format 1's manifest was).
    public func encoded() throws(PublishError) -> [UInt8] {
        try PublicationJSON.encode(self, what: "the root")
    }
}

/// One shard's last committed publication, as the root gives it.
public struct ShardEntry: Codable, Equatable, Sendable {
    /// Raised by every publication of the shard.
    public var generation: Int
    /// The first 16 hex digits of the SHA-256 of the publication's record.
    public var publication: String
    /// The record's name (`publisher.<K>of<N>.<sha256>.json`).
    public var record: String

    public init(generation: Int, publication: String, record: String) {
        self.generation = generation
        self.publication = publication
        self.record = record
    }
}

/// The catalog clients download, as the root gives it (no source fingerprint: that is the
/// publisher's, kept in its record).
public struct RootCatalog: Codable, Equatable, Sendable {
    public var name: String
    public var file: String
    public var version: Int
    public var sha256: String
    public var size: Int
    public var feedCount: Int
    public var schemaVersion: Int
    public var contentDigest: String?

    enum CodingKeys: String, CodingKey {
        case name, file, version, sha256, size
        case contentDigest = "content_digest"
        case feedCount = "feed_count"
        case schemaVersion = "schema_version"
    }

    public init(_ catalog: PublishedCatalog) {
        name = catalog.name
        file = catalog.file
        version = catalog.version
        sha256 = catalog.sha256
        size = catalog.size
        feedCount = catalog.feedCount
        schemaVersion = catalog.schemaVersion
        contentDigest = catalog.contentDigest
    }
}

/// Names the root uses.
public enum RootNames {
    public static let root = "manifest.json"
    public static let feedPointerTemplate = "feed_{feedid}.json"
}

/// The one JSON encoding of everything the publisher writes as JSON but deltas: sorted keys,
/// no white space, `/` unescaped, a trailing newline. Deterministic: the same value gives the
/// same bytes, so a record's digest (its publication id) depends on its content alone. Not
/// pretty-printed since issue 51: the indentation was a fifth of every pointer a client
/// fetches and of the publisher's record.
enum PublicationJSON {
    static func encode<Value: Encodable>(_ value: Value, what: String) throws(PublishError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return [UInt8](try encoder.encode(value)) + [0x0A]
        } catch {
            throw .storage(.init(path: what, message: "encoding failed: \(error)"))
        }
    }

    /// The publication id of a record's bytes.
    static func publicationID(ofRecord bytes: [UInt8]) -> (sha256: String, publication: String) {
        let digest = SHA256.hexDigest(bytes)
        return (digest, String(digest.prefix(16)))
    }
}
