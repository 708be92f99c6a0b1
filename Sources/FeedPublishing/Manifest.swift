/// `manifest.json`: what a client reads first. Written last and atomically, so everything it
/// names exists and matches its SHA-256. It is also the publisher's own memory (versions,
/// source fingerprints), so the two can never disagree.
public struct Manifest: Codable, Equatable, Sendable {
    /// `feedmill-manifest`: what this file is. Absent from manifests written before it was
    /// versioned (read as the first format), always written.
    public var format: String? = Manifest.formatName
    /// Raised only by a change an older client would misread (never by an added field): a
    /// client, and this publisher, refuse a manifest of a format version they do not know.
    public var formatVersion: Int? = Manifest.currentFormatVersion
    /// Raised by every publication that changed anything.
    public var generation: Int
    public var catalog: PublishedCatalog?
    public var feeds: [PublishedFeed]
    /// The aggregated Atom feed and page, relative to the manifest.
    public var atom: String?
    public var index: String?
    /// Files earlier publications wrote that this one no longer names, still on disk until
    /// the next publication removes them (a client may still be downloading one). The
    /// publisher's record of what it may delete; clients ignore it.
    public var retiredFiles: [String]?
    /// Stable names (`all_feeds.sqlite`, `feed_<id>.sqlite`) the publisher has written: the
    /// only files at those names it may replace or remove. Clients use `name` instead.
    public var stableFiles: [String]?

    public static let formatName = "feedmill-manifest"
    public static let currentFormatVersion = 1

    enum CodingKeys: String, CodingKey {
        case format, generation, catalog, feeds, atom, index
        case formatVersion = "format_version"
        case retiredFiles = "retired_files"
        case stableFiles = "stable_files"
    }

    public init(generation: Int = 0, catalog: PublishedCatalog? = nil, feeds: [PublishedFeed] = []) {
        self.generation = generation
        self.catalog = catalog
        self.feeds = feeds
    }

    /// What clients of this publication may be downloading: current snapshots, deltas, pages.
    var servedFiles: Set<String> {
        var files = Set(feeds.flatMap { feed in [feed.file] + feed.deltas.map(\.file) })
        if let catalog { files.insert(catalog.file) }
        if let atom { files.insert(atom) }
        if let index { files.insert(index) }
        return files
    }

    /// Every file the manifest names (snapshots, retained versions, deltas, pages).
    var files: Set<String> {
        var files = Set(feeds.flatMap { feed in [feed.file] + feed.history.map(\.file) + feed.deltas.map(\.file) })
        if let catalog { files.insert(catalog.file) }
        if let atom { files.insert(atom) }
        if let index { files.insert(index) }
        return files
    }
}

public struct PublishedCatalog: Codable, Equatable, Sendable {
    /// The name clients know the database by (`all_feeds.sqlite`).
    public var name: String
    /// The versioned file to download (`all_feeds.v3.sqlite`).
    public var file: String
    public var version: Int
    public var sha256: String
    public var size: Int
    public var feedCount: Int
    public var schemaVersion: Int
    public var sourceFingerprint: String
    /// ``ContentDigest`` of this version's rows. Absent from manifests written before it
    /// existed: the next publication computes it.
    public var contentDigest: String?

    enum CodingKeys: String, CodingKey {
        case name, file, version, sha256, size
        case contentDigest = "content_digest"
        case feedCount = "feed_count"
        case schemaVersion = "schema_version"
        case sourceFingerprint = "source_fingerprint"
    }
}

public struct PublishedFeed: Codable, Equatable, Sendable {
    public var feedID: Int64
    public var name: String
    public var file: String
    /// Monotonic per feed: raised each time its content changes.
    public var version: Int
    public var sha256: String
    public var size: Int
    public var itemCount: Int
    public var lastUpdate: Int64?
    public var schemaVersion: Int
    public var sourceFingerprint: String
    /// ``ContentDigest`` of this version's rows: what a client checks after a full download
    /// and after applying a delta. Absent from manifests written before it existed: the next
    /// publication computes it.
    public var contentDigest: String?
    /// Deltas from earlier versions to this one: a client at `fromVersion` applies one.
    public var deltas: [PublishedDelta]
    /// Earlier snapshots still served (newest first): downloads in progress keep working.
    public var history: [PublishedVersion]

    enum CodingKeys: String, CodingKey {
        case name, file, version, sha256, size, deltas, history
        case contentDigest = "content_digest"
        case feedID = "feedid"
        case itemCount = "item_count"
        case lastUpdate = "last_update_unix_time"
        case schemaVersion = "schema_version"
        case sourceFingerprint = "source_fingerprint"
    }
}

public struct PublishedDelta: Codable, Equatable, Sendable {
    public var fromVersion: Int
    public var file: String
    public var sha256: String
    public var size: Int

    enum CodingKeys: String, CodingKey {
        case file, sha256, size
        case fromVersion = "from_version"
    }
}

public struct PublishedVersion: Codable, Equatable, Sendable {
    public var version: Int
    public var file: String
    public var sha256: String
}
