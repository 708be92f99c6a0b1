import FeedStorage
import Foundation

/// `catalog_page_<k>.<sha256>.json`: the catalog's rows of the feeds with ids `k × page_size`
/// to `(k + 1) × page_size − 1`, for a client browsing a catalog too large to download (issue
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

/// `catalog_titles.<sha256>.json`: a run of the title index, sorted by folded title then
/// feedid (``CatalogTitleIndex``): a search by title reads the index, a title group and one
/// or a few of these. Format 2: runs cut where the titles say (format 1 cut by prefix, and a
/// prefix that a million titles share was one chunk of 80 MB).
public struct CatalogTitlesDocument: Codable, Equatable, Sendable {
    public var format = CatalogTitlesDocument.formatName
    public var formatVersion = 2
    public var titles: [CatalogTitle]

    public static let formatName = "feedmill-catalog-titles"

    enum CodingKeys: String, CodingKey {
        case format, titles
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
