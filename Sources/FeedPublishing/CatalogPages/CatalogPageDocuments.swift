import FeedStorage
import Foundation

/// `catalog_page_<k>.<sha256>.json`: the catalog's rows of the feeds with ids `k × pageSize`
/// to `(k + 1) × pageSize − 1`, for a client browsing a catalog too large to download (issue
/// 51). Immutable, named by its bytes; a page is written again only when one of its feeds'
/// rows changed.
public struct CatalogPageDocument: Codable, Equatable, Sendable {
    public var format = CatalogPageDocument.formatName
    public var formatVersion = 1
    public var page: Int
    public var feeds: [CatalogPageFeed]

    public static let formatName = "feedmill-catalog-page"

    enum CodingKeys: String, CodingKey {
        case format, page, feeds
        case formatVersion = "format_version"
    }
}

/// One feed's row in a page: the catalog's `feeds`, `about` and `last_update` columns, as its
/// pointer's `about` gives them (links only http/https).
public struct CatalogPageFeed: Codable, Equatable, Sendable {
    public var feedID: Int64
    public var about: PointerAbout
    public var lastUpdate: Int64?

    enum CodingKeys: String, CodingKey {
        case feedID = "feedid"
        case lastUpdate = "last_update_unix_time"
    }

    init(_ feed: CatalogFeed) {
        feedID = feed.feedID
        about = PointerAbout(feed)
        lastUpdate = feed.lastUpdate
    }

    // The row's columns beside the feedid, flat (`url`, `title`, …), as a client reads them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        feedID = try container.decode(Int64.self, forKey: .feedID)
        lastUpdate = try container.decodeIfPresent(Int64.self, forKey: .lastUpdate)
        about = try PointerAbout(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feedID, forKey: .feedID)
        try container.encodeIfPresent(lastUpdate, forKey: .lastUpdate)
        try about.encode(to: encoder)
    }
}

/// `catalog_titles.<sha256>.json`: the titled feeds whose folded title starts with `prefix`
/// (and no longer prefix has a chunk of its own), sorted by folded title then feedid: a search
/// by title reads the index and one or a few of these (``CatalogTitleIndex``).
public struct CatalogTitlesDocument: Codable, Equatable, Sendable {
    public var format = CatalogTitlesDocument.formatName
    public var formatVersion = 1
    public var prefix: String
    public var titles: [CatalogTitle]

    public static let formatName = "feedmill-catalog-titles"

    enum CodingKeys: String, CodingKey {
        case format, prefix, titles
        case formatVersion = "format_version"
    }
}

public struct CatalogTitle: Codable, Equatable, Sendable {
    /// The title folded (``CatalogTitleIndex/fold(_:)``): what a search compares.
    public var key: String
    public var feedID: Int64
    public var title: String

    enum CodingKeys: String, CodingKey {
        case key, title
        case feedID = "feedid"
    }
}

/// `catalog_index.<sha256>.json`, named by the root's `catalog_index`: every page and title
/// chunk with its size and SHA-256. What a browsing client reads first.
public struct CatalogIndexDocument: Codable, Equatable, Sendable {
    public var format = CatalogIndexDocument.formatName
    public var formatVersion = 1
    public var pageSize: Int
    public var feedCount: Int
    public var pages: [CatalogPageEntry]
    public var titles: [CatalogTitlesEntry]

    public static let formatName = "feedmill-catalog-index"

    enum CodingKeys: String, CodingKey {
        case format, pages, titles
        case formatVersion = "format_version"
        case pageSize = "page_size"
        case feedCount = "feed_count"
    }
}

public struct CatalogPageEntry: Codable, Equatable, Sendable {
    public var page: Int
    public var file: String
    public var sha256: String
    public var size: Int
    public var count: Int
}

public struct CatalogTitlesEntry: Codable, Equatable, Sendable {
    public var prefix: String
    public var file: String
    public var sha256: String
    public var size: Int
    public var count: Int
}

/// The root's `catalog_index`: the index file.
public struct RootCatalogIndex: Codable, Equatable, Sendable {
    public var file: String
    public var sha256: String
    public var size: Int
}
