/// The publisher's full state of one shard: every feed's entry with its history, deltas,
/// source fingerprint and the pointer's previous entry, the catalog snapshot, retired names
/// and the stable names it owns. In format 2 it is the publisher record
/// `publisher.<K>of<N>.<sha256>.json` (``PublishedName/record(_:sha256:)``), immutable, named
/// by the root's `shards` entry; clients never read it. In format 1 it was `manifest.json`
/// itself, which is why it keeps that name: a format-1 manifest is read as the previous record
/// when a directory is upgraded in place.
public struct Manifest: Codable, Equatable, Sendable {
    /// `feedmill-manifest`: what this file is. Absent from manifests written before it was
    /// versioned (read as the first format), always written.
    public var format: String? = Manifest.formatName
    /// Raised only by a change an older client would misread (never by an added field): a
    /// client, and this publisher, refuse a manifest of a format version they do not know.
    public var formatVersion: Int? = Manifest.currentFormatVersion
    /// Raised by every publication of this shard that changed anything.
    public var generation: Int
    /// The shard this record is of (`2/4`); absent from format 1 (the whole feed list).
    public var shard: String?
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
    /// Names this shard no longer uses, with when they were retired: removed once the grace
    /// period has passed and a later generation has been committed (format 2).
    public var retired: [RetiredFile]?
    /// The merged catalogs this shard wrote for the root when it committed with others (N > 1).
    public var rootCatalogs: [String]?
    /// How far this record has read the catalog's change log (``CatalogChanges``): the next
    /// publication reads only the feeds changed since. Absent: it reads every feed.
    public var changes: ChangesSeen?
    /// Feeds the change log named that this record could not publish (their database failed
    /// a check): read again by the next publication, whatever the log says.
    public var pendingFeeds: [Int64]?
    /// The newest entries of the pages, kept so that the next publication reads only the
    /// snapshots that changed (``NewestEntriesKept``). Absent: it reads every one. Unsharded only.
    public var newest: NewestEntriesKept?
    /// The catalog's pages and title index (``CatalogIndexDocument``) and the index's file:
    /// the next publication rewrites only the pages whose feeds changed. Unsharded only.
    public var catalogPages: CatalogPagesKept?
    /// The pages that hold ``feeds`` in the record's file (each `publisher.<K>of<N>.p<k>.<sha256>.json`,
    /// ``RecordPage/size(formatVersion:)`` feed ids a page): a publication writes again only the pages whose feeds changed.
    /// In memory, ``feeds`` is every feed whatever the file holds (``ManifestStore``).
    public var feedPages: [RecordPage]?

    /// A format-1 manifest's `format`; the root keeps it.
    public static let formatName = "feedmill-manifest"
    /// What a format-2 record is.
    public static let recordFormatName = "feedmill-publisher-record"
    public static let legacyFormatVersion = 1
    public static let currentFormatVersion = 2
    /// A record's own format version: 3 since its feeds are in pages (issue 51), so a
    /// publisher from before refuses such a record (and says to recover) rather than read it
    /// as a record of no feeds; 4 since it leaves out what it names elsewhere (issue 51: its
    /// size grew with every feed): `stable_files` lists only the names its feeds and catalog
    /// do not give (``ManifestStore/encoded(_:)``), and `catalog_pages` only the catalog
    /// index's file, whose bytes hold the rest; 5 since its pages hold 50 feed ids, not 250
    /// (issue 51: one changed feed wrote its page and, the next time, that page again, 2 × 127
    /// KB; a format-4 record is read with its own page size). This one reads records of 2 to 5;
    /// the root and the pointers stay at ``currentFormatVersion``.
    public static let recordFormatVersion = 5
    /// The first record format version that leaves the derived stable names and the catalog
    /// index's document out.
    static let compactRecordFormatVersion = 4

    enum CodingKeys: String, CodingKey {
        case format, generation, catalog, feeds, atom, index, shard, retired
        case formatVersion = "format_version"
        case retiredFiles = "retired_files"
        case stableFiles = "stable_files"
        case rootCatalogs = "root_catalogs"
        case changes
        case pendingFeeds = "pending_feeds"
        case newest = "newest_entries"
        case catalogPages = "catalog_pages"
        case feedPages = "feed_pages"
    }

    public init(generation: Int = 0, catalog: PublishedCatalog? = nil, feeds: [PublishedFeed] = []) {
        self.generation = generation
        self.catalog = catalog
        self.feeds = feeds
    }

    /// A record written by this publisher (format 2), as opposed to a format-1 manifest.
    public var isRecord: Bool { format == Self.recordFormatName }

    /// What clients of this publication may be downloading: the current snapshots and their
    /// deltas, the catalog, and the root's catalog.
    var servedFiles: Set<String> {
        var files = Set(feeds.flatMap { feed in [feed.file] + feed.deltas.map(\.file) })
        if let catalog { files.insert(catalog.file) }
        files.formUnion(rootCatalogs ?? [])
        files.formUnion(catalogPages?.files ?? [])
        return files
    }

    /// Every file the record keeps (snapshots, retained versions, deltas, the pointer's
    /// previous entry's files, pointers, catalogs; not the pages or stable names, which are
    /// replaced in place).
    var files: Set<String> {
        var files = Set<String>()
        for feed in feeds {
            files.insert(feed.file)
            files.formUnion(feed.history.map(\.file))
            files.formUnion(feed.deltas.map(\.file))
            if let previous = feed.previousEntry {
                files.insert(previous.file)
                files.formUnion(previous.deltas.map(\.file))
            }
        }
        if isRecord { files.formUnion(feeds.map { PublishedName.pointer($0.feedID).fileName }) }
        files.formUnion((feedPages ?? []).map(\.file))
        if let catalog { files.insert(catalog.file) }
        files.formUnion(rootCatalogs ?? [])
        files.formUnion(catalogPages?.files ?? [])
        return files
    }
}

/// One page of a record's feeds: its file, named by its SHA-256, and how many feeds it holds.
public struct RecordPage: Codable, Equatable, Sendable {
    public var page: Int
    public var file: String
    public var sha256: String
    public var count: Int

    /// Feed ids per page in a record of `formatVersion`: 50 from format 5 (a page is about 510
    /// bytes a feed, and one changed feed writes its page in that publication and again in the
    /// next, which names the entries' publication: 2 × 25 KB, against a record listing a page
    /// in ~180 bytes: 36 KB at 10,000 published feeds), 250 in format 4, 1,000 in format 3.
    public static func size(formatVersion: Int?) -> Int64 {
        switch formatVersion ?? 0 {
        case 5...: 50
        case Manifest.compactRecordFormatVersion...: 250
        default: 1_000
        }
    }
}

/// A record page's file.
struct RecordPageDocument: Codable, Equatable {
    var format = "feedmill-publisher-record-page"
    var page: Int
    var feeds: [PublishedFeed]
}

/// The catalog's change log as a record last read it: the log's epoch and its highest mark.
public struct ChangesSeen: Codable, Equatable, Sendable {
    public var epoch: Int64
    public var seen: Int64

    public init(epoch: Int64, seen: Int64) {
        (self.epoch, self.seen) = (epoch, seen)
    }
}

/// A name a record no longer uses, kept for the grace period (a client holding an older root
/// may still be downloading it).
public struct RetiredFile: Codable, Equatable, Sendable {
    public var name: String
    /// Unix time when it was retired.
    public var retiredAt: Int64
    /// The shard generation that retired it: it is removed by a later one only.
    public var generation: Int

    enum CodingKeys: String, CodingKey {
        case name, generation
        case retiredAt = "retired_unix_time"
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
    /// When this snapshot was written (absent from records before issue 51).
    public var writtenAt: Int64?
    /// Changes to `last_update` alone that this snapshot does not hold yet: a large catalog is
    /// written again for them at most once per ``PublishConfiguration/catalogRefresh``.
    public var behind: Bool?

    enum CodingKeys: String, CodingKey {
        case name, file, version, sha256, size, behind
        case contentDigest = "content_digest"
        case feedCount = "feed_count"
        case schemaVersion = "schema_version"
        case sourceFingerprint = "source_fingerprint"
        case writtenAt = "written_unix_time"
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
    /// The shard generation that wrote this entry (format 2; absent in format 1).
    public var entryGeneration: Int?
    /// The publication that wrote it; absent when it is the record's own publication (whose
    /// id is the record's digest, which the record cannot hold).
    public var entryPublication: String?
    /// The last committed entry before this one, which the pointer still gives (format 2).
    public var previousEntry: PointerEntry?

    enum CodingKeys: String, CodingKey {
        case name, file, version, sha256, size, deltas, history
        case entryGeneration = "entry_generation"
        case entryPublication = "entry_publication"
        case previousEntry = "previous_entry"
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
    /// The schema version it was published at: no delta is made across a rise (format 2; in
    /// format 1 the file's `PRAGMA user_version` alone said it, and still does when this is absent).
    public var schemaVersion: Int?

    enum CodingKeys: String, CodingKey {
        case version, file, sha256
        case schemaVersion = "schema_version"
    }
}
