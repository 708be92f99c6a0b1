import FeedStorage

/// `feed_<id>.json`: where a client finds a feed's snapshot and deltas, revalidated with
/// `If-None-Match` (a feed that did not change keeps its bytes, and so its ETag). At most two
/// entries, newest first: the one the latest publication wrote and the last committed one
/// before it, so a client still holding the previous root finds a usable one while a
/// publication is in flight (the client rule is in docs/client-contract.md).
public struct FeedPointer: Codable, Equatable, Sendable {
    public var format = FeedPointer.formatName
    public var formatVersion = Manifest.currentFormatVersion
    public var feedID: Int64
    public var entries: [PointerEntry]
    /// What a reader shows for the feed, as the catalog has it now (absent from pointers
    /// written before issue 51).
    public var about: PointerAbout?

    public static let formatName = "feedmill-feed-pointer"

    enum CodingKeys: String, CodingKey {
        case format, entries, about
        case formatVersion = "format_version"
        case feedID = "feedid"
    }

    public init(feedID: Int64, entries: [PointerEntry], about: PointerAbout? = nil) {
        self.feedID = feedID
        self.entries = entries
        self.about = about
    }

    public func encoded() throws(PublishError) -> [UInt8] {
        try PublicationJSON.encode(self, what: PublishedName.pointer(feedID).fileName)
    }
}

/// The catalog's `feeds.url` and `about` row of a feed, in its pointer: what a reader shows for
/// a feed it follows (title, site, description, picture) reaches it with the feed, so a
/// client following 50 of a million feeds never downloads the catalog for 50 titles (issue
/// 51). Links that are not `http`/`https` are left out, as everywhere clients read.
public struct PointerAbout: Codable, Equatable, Sendable {
    public var url: String
    public var title: String?
    public var link: String?
    public var description: String?
    public var imageURL: String?
    public var language: String?

    enum CodingKeys: String, CodingKey {
        case url, title, link, description, language
        case imageURL = "image_url"
    }

    public init(url: String, title: String? = nil, link: String? = nil, description: String? = nil, imageURL: String? = nil, language: String? = nil) {
        (self.url, self.title, self.link, self.description, self.imageURL, self.language) = (url, title, link, description, imageURL, language)
    }

    /// The feed's row as a client's catalog would hold it.
    init(_ feed: CatalogFeed) {
        self.init(
            url: feed.url, title: feed.title, link: feed.link.flatMap(WebLink.checked), description: feed.about.description,
            imageURL: feed.about.imageURL.flatMap(WebLink.checked), language: feed.about.language)
    }
}

/// One published version of a feed, as its pointer gives it, with the shard publication
/// that wrote it.
public struct PointerEntry: Codable, Equatable, Sendable {
    public var shard: String
    public var generation: Int
    public var publication: String
    public var name: String
    public var file: String
    public var version: Int
    public var sha256: String
    public var size: Int
    public var itemCount: Int
    public var lastUpdate: Int64?
    public var schemaVersion: Int
    public var contentDigest: String?
    public var deltas: [PublishedDelta]

    enum CodingKeys: String, CodingKey {
        case shard, generation, publication, name, file, version, sha256, size, deltas
        case itemCount = "item_count"
        case lastUpdate = "last_update_unix_time"
        case schemaVersion = "schema_version"
        case contentDigest = "content_digest"
    }

    /// The entry of `feed`, written by the publication `publication` of `shard`.
    init(_ feed: PublishedFeed, shard: String, generation: Int, publication: String) {
        self.shard = shard
        self.generation = generation
        self.publication = publication
        name = feed.name
        file = feed.file
        version = feed.version
        sha256 = feed.sha256
        size = feed.size
        itemCount = feed.itemCount
        lastUpdate = feed.lastUpdate
        schemaVersion = feed.schemaVersion
        contentDigest = feed.contentDigest
        deltas = feed.deltas
    }
}

/// `.feedmill-intent.<K>of<N>.json`: what a shard's publication will do before its root is
/// committed, so a run that dies after writing pointers is repaired by the next: that one
/// rewrites every pointer named here that the root does not vouch for.
public struct PublishIntent: Codable, Equatable, Sendable {
    public var generation: Int
    public var publication: String
    public var feeds: [Int64]
    /// Set once the committed publication's `atom.xml` and `index.html` are written: the
    /// intent of a committed publication without it makes the next run write them, whatever
    /// else changed (a run that failed between the root and the pages left them behind; issue 52).
    public var pagesWritten: Bool?

    public init(generation: Int, publication: String, feeds: [Int64], pagesWritten: Bool? = nil) {
        self.generation = generation
        self.publication = publication
        self.feeds = feeds
        self.pagesWritten = pagesWritten
    }

    public func encoded() throws(PublishError) -> [UInt8] {
        try PublicationJSON.encode(self, what: "the intent")
    }
}
