import Foundation

/// `catalog_index.<sha256>.json`, named by the root's `catalog_index`: what a browsing client
/// reads first. Format 2 (issue 51) names groups, not every page and chunk: at a million feeds
/// the format-1 index listed 1,000 pages (212 KB), written again by every publication that
/// changed a feed; now it lists ~63 page groups and ~30 title groups (about 25 KB), and one
/// changed feed writes its page, its page group and this.
public struct CatalogIndexDocument: Codable, Equatable, Sendable {
    public var format = CatalogIndexDocument.formatName
    public var formatVersion = CatalogIndexDocument.currentFormatVersion
    /// Feed ids a page: page `k` holds ids `k × pageSize` to `(k + 1) × pageSize − 1`.
    public var pageSize: Int
    /// Pages a page group: group `g` names pages `g × groupSize` to `(g + 1) × groupSize − 1`.
    public var groupSize: Int
    public var feedCount: Int
    public var pageGroups: [CatalogPageGroupEntry]
    public var titleCount: Int
    /// In the order of the titles they hold.
    public var titleGroups: [CatalogTitleGroupEntry]

    public static let formatName = "feedmill-catalog-index"
    public static let currentFormatVersion = 2

    enum CodingKeys: String, CodingKey {
        case format
        case formatVersion = "format_version"
        case pageSize = "page_size"
        case groupSize = "group_size"
        case feedCount = "feed_count"
        case pageGroups = "page_groups"
        case titleCount = "title_count"
        case titleGroups = "title_groups"
    }
}

public struct CatalogPageGroupEntry: Codable, Equatable, Sendable {
    public var group: Int
    public var file: String
    public var sha256: String
    public var size: Int
    /// Pages it names.
    public var pages: Int
    /// Feeds on those pages.
    public var count: Int
}

/// `catalog_pages_<g>.<sha256>.json`: the pages of group `g`, by page number.
public struct CatalogPageGroupDocument: Codable, Equatable, Sendable {
    public var format = CatalogPageGroupDocument.formatName
    public var formatVersion = 1
    public var group: Int
    public var pages: [CatalogPageEntry]

    public static let formatName = "feedmill-catalog-page-group"

    enum CodingKeys: String, CodingKey {
        case format, group, pages
        case formatVersion = "format_version"
    }
}

public struct CatalogPageEntry: Codable, Equatable, Sendable {
    public var page: Int
    public var file: String
    public var sha256: String
    public var size: Int
    public var count: Int
}

public struct CatalogTitleGroupEntry: Codable, Equatable, Sendable {
    /// Its first title's key and feedid: where it starts in the index's order.
    public var firstKey: String
    public var firstFeedID: Int64
    public var file: String
    public var sha256: String
    public var size: Int
    /// Title runs it names.
    public var chunks: Int
    /// Titles in those runs.
    public var count: Int

    enum CodingKeys: String, CodingKey {
        case file, sha256, size, chunks, count
        case firstKey = "first_key"
        case firstFeedID = "first_feedid"
    }
}

/// `catalog_title_group.<sha256>.json`: consecutive runs of the title index.
public struct CatalogTitleGroupDocument: Codable, Equatable, Sendable {
    public var format = CatalogTitleGroupDocument.formatName
    public var formatVersion = 1
    public var chunks: [CatalogTitlesEntry]

    public static let formatName = "feedmill-catalog-title-group"

    enum CodingKeys: String, CodingKey {
        case format, chunks
        case formatVersion = "format_version"
    }
}

public struct CatalogTitlesEntry: Codable, Equatable, Sendable {
    public var firstKey: String
    public var firstFeedID: Int64
    public var file: String
    public var sha256: String
    public var size: Int
    public var count: Int

    enum CodingKeys: String, CodingKey {
        case file, sha256, size, count
        case firstKey = "first_key"
        case firstFeedID = "first_feedid"
    }
}

/// The root's `catalog_index`: the index file.
public struct RootCatalogIndex: Codable, Equatable, Sendable {
    public var file: String
    public var sha256: String
    public var size: Int
}
