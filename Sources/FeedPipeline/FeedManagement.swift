import FeedBasics
import FeedNormalization
import FeedStorage

/// One feed as `rss-feeds list` shows it: who it is and how it is doing. As JSON every key is
/// always present (`null` when unknown), times in seconds since 1970 as in the databases.
public struct FeedListing: Sendable, Equatable, Encodable {
    public var feedID: Int64
    public var title: String?
    public var url: String
    public var category: String?
    public var lastSuccess: Int64?
    public var lastAttempt: Int64?
    public var lastErrorKind: String?
    public var lastError: String?
    public var consecutiveErrors: Int
    /// `nil` for a gone feed; at or before now: due now.
    public var nextDue: Int64?
    public var gone: Bool
    /// `nil` when the feed has no readable database yet.
    public var items: Int?
    public var retention: Retention
    /// Catalog values that did not read as their column's type (``CatalogFeed/unreadable``);
    /// said on standard error, not part of the listing.
    public var unreadable: [String] = []

    enum CodingKeys: String, CodingKey {
        case feedID = "feedid", title, url, category, gone, items
        case lastSuccess = "last_success_unix_time", lastAttempt = "last_attempt_unix_time"
        case lastErrorKind = "last_error_kind", lastError = "last_error", consecutiveErrors = "consecutive_errors"
        case nextDue = "next_due_unix_time", keepItems = "keep_items", keepDays = "keep_days"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(feedID, forKey: .feedID)
        try container.encode(title, forKey: .title)
        try container.encode(url, forKey: .url)
        try container.encode(category, forKey: .category)
        try container.encode(lastSuccess, forKey: .lastSuccess)
        try container.encode(lastAttempt, forKey: .lastAttempt)
        try container.encode(lastErrorKind, forKey: .lastErrorKind)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(consecutiveErrors, forKey: .consecutiveErrors)
        try container.encode(nextDue, forKey: .nextDue)
        try container.encode(gone, forKey: .gone)
        try container.encode(items, forKey: .items)
        try container.encode(retention.keepItems, forKey: .keepItems)
        try container.encode(retention.keepDays, forKey: .keepDays)
    }
}

/// The catalog managed without SQL (`rss-feeds`): list, add, remove, set retention, export.
public enum FeedManagement {
    public static func list(_ catalog: Catalog, configuration: PipelineConfiguration) throws(PipelineError) -> [FeedListing] {
        let feeds: [CatalogFeed] = try rethrowing(try catalog.feeds(), as: PipelineError.storage)
        return feeds.map { feed in
            let state = feed.state
            var listing = listing(feed, state: state, configuration: configuration)
            listing.unreadable = feed.unreadable
            return listing
        }
    }

    private static func listing(_ feed: CatalogFeed, state: FetchState, configuration: PipelineConfiguration) -> FeedListing {
        // The last error is the current one only while failures continue.
        let failing = state.consecutiveErrors > 0 || state.gone
        return FeedListing(
            feedID: feed.feedID, title: feed.title, url: feed.url, category: state.category, lastSuccess: state.lastSuccess ?? feed.lastUpdate,
            lastAttempt: state.lastAttempt, lastErrorKind: failing ? state.lastErrorKind?.rawValue : nil,
            lastError: failing ? state.lastError : nil, consecutiveErrors: state.consecutiveErrors,
            nextDue: UpdateSchedule.nextDue(feed, now: configuration.clock(), configuration: configuration), gone: state.gone,
            items: FeedDatabase.itemCount(at: configuration.feedDatabasePath(feed.feedID)), retention: state.retention)
    }

    /// Adds one feed; its first fetch is the next `rss-update`'s (it has never been read).
    public static func add(
        url: String, title: String?, category: String?, catalog: Catalog
    ) throws(PipelineError) -> (feed: CatalogFeed, isNew: Bool) {
        guard URLResolver.resolve(url, against: nil).map(URLResolver.isWebURL) == true else {
            throw .feedList(source: url, reason: "a feed URL must be an absolute http or https URL")
        }
        return try rethrowing(try catalog.add(CatalogOutline(url: url, title: title, category: category)), as: PipelineError.storage)
    }

    /// Removes the feed from the catalog, then its database (``FeedRemoval``). Returns the
    /// feed and, when its database was kept, why.
    public static func remove(
        _ feedID: Int64, catalog: Catalog, configuration: PipelineConfiguration
    ) throws(PipelineError) -> (feed: CatalogFeed, kept: String?) {
        // The database first, then the catalog's rows: a removal that fails on an I/O error
        // leaves the feed listed, so the same command run again finishes it; the other way
        // round, the database of a feed no longer listed stayed for good (issue 52).
        let found: CatalogFeed? = try rethrowing(try catalog.feed(id: feedID), as: PipelineError.storage)
        guard let found else { throw .unknownFeeds([feedID]) }
        let outcome = FeedRemoval.databaseRemoval(of: found, configuration: configuration)
        if case .failed(let cause) = outcome {
            throw .storage(StorageError(path: configuration.feedDatabasePath(feedID), message: "not removed: \(cause); feed \(feedID) stays listed until it is (run the same command again)"))
        }
        let removed: CatalogFeed? = try rethrowing(try catalog.remove(feedID: feedID), as: PipelineError.storage)
        guard let removed else { throw .unknownFeeds([feedID]) }
        if case .kept(let reason) = outcome { return (removed, reason) }
        return (removed, nil)
    }

    /// Changes the feed's own retention (a `nil` limit: the run's) and saves it.
    public static func updateRetention(
        of feedID: Int64, catalog: Catalog, _ update: (inout Retention) -> Void
    ) throws(PipelineError) -> CatalogFeed {
        let found: CatalogFeed? = try rethrowing(try catalog.feed(id: feedID), as: PipelineError.storage)
        guard var feed = found else { throw .unknownFeeds([feedID]) }
        update(&feed.state.retention)
        try rethrowing(try catalog.save(feed), as: PipelineError.storage)
        return feed
    }

    /// The catalog as OPML 2.0: categories as nested outlines (in order of first appearance),
    /// feeds in feedid order within each, each with its list title (else its own), `xmlUrl`
    /// and `htmlUrl`. `rss-create` reading it lists the same feeds under the same categories
    /// and titles (into a new catalog, feedids follow the file's order).
    public static func opml(_ feeds: [CatalogFeed], title: String) -> String {
        final class Group {
            var name: String
            var feeds: [CatalogFeed] = []
            var children: [Group] = []
            init(_ name: String) { self.name = name }
            func child(_ name: String) -> Group {
                if let found = children.first(where: { $0.name == name }) { return found }
                let made = Group(name)
                children.append(made)
                return made
            }
        }
        let root = Group("")
        for feed in feeds.sorted(by: { $0.feedID < $1.feedID }) {
            let path = (feed.state.category ?? "").split(separator: "/").map(String.init)
            path.reduce(root) { $0.child($1) }.feeds.append(feed)
        }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#, #"<opml version="2.0">"#,
            "  <head><title>\(Markup.escape(title))</title></head>", "  <body>",
        ]
        func write(_ group: Group, depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            for feed in group.feeds {
                // Empty rather than the URL: read back, an empty text is no title.
                let name = feed.state.opmlTitle ?? feed.title ?? ""
                var attributes = #"type="rss" text="\#(Markup.escape(name))" xmlUrl="\#(Markup.escape(feed.url))""#
                if let site = feed.state.siteLink { attributes += #" htmlUrl="\#(Markup.escape(site))""# }
                lines.append("\(indent)<outline \(attributes)/>")
            }
            for child in group.children {
                lines.append("\(indent)<outline text=\"\(Markup.escape(child.name))\">")
                write(child, depth: depth + 1)
                lines.append("\(indent)</outline>")
            }
        }
        write(root, depth: 2)
        lines += ["  </body>", "</opml>"]
        return lines.joined(separator: "\n") + "\n"
    }
}
