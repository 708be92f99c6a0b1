import FeedFetching
import FeedModel
import FeedPipeline
import FeedStorage
import Foundation
import TestSupport

/// A data directory, a catalog, a configuration allowed to reach 127.0.0.1, and a clock the
/// test moves by hand.
final class Harness: @unchecked Sendable {
    // `@unchecked Sendable`: `time` is only touched under `lock`.
    let directory: TemporaryDirectory
    let catalog: Catalog
    private let lock = NSLock()
    private var time: Int64 = 1_700_000_000
    /// The run's retention; set before a run, never during one.
    var retention = Retention.keepEverything
    /// Changes to the fetch configuration (limits, timeouts); set before a run.
    var tuneFetch: (inout FetchConfiguration) -> Void = { _ in }
    /// Feeds parsed at once; set before a run.
    var parsingLimit = PipelineConfiguration().parsingLimit

    init() throws {
        directory = try TemporaryDirectory()
        catalog = try Catalog(path: directory.url.path + "/all_feeds.sqlite")
    }

    var now: Int64 {
        get { lock.withLock { time } }
        set { lock.withLock { time = newValue } }
    }

    var configuration: PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.dataDirectory = directory.url.path
        configuration.fetch.networkPolicy = .allowAll
        configuration.concurrency = 4
        configuration.clock = { [self] in now }
        configuration.retention = retention
        configuration.parsingLimit = parsingLimit
        tuneFetch(&configuration.fetch)
        return configuration
    }

    func update(_ selection: FeedSelection = .due(limit: nil), dryRun: Bool = false) throws -> RunReport {
        try UpdateRun(configuration: configuration, catalog: catalog).run(selection, dryRun: dryRun)
    }

    /// `rss-create`'s work: read the list, then import it and fetch the new feeds.
    func create(_ source: String, prune: Bool = false) throws -> CreateReport {
        let list = try FeedList.load(source, configuration: configuration.fetch)
        return try CreateRun(configuration: configuration, catalog: catalog).run(feedList: list, prune: prune)
    }

    /// Adds feeds for these URLs; their feedids in order.
    @discardableResult
    func add(_ urls: [String]) throws -> [Int64] {
        try catalog.importOutlines(urls.map { CatalogOutline(url: $0) }, prune: false).added.map(\.feedID)
    }

    func feed(_ id: Int64) throws -> CatalogFeed {
        guard let feed = try catalog.feed(id: id) else { throw HarnessError.noSuchFeed(id) }
        return feed
    }

    func databasePath(_ id: Int64) -> String { configuration.feedDatabasePath(id) }

    /// `id → (title, permalink, pubdate)` for every stored item.
    func items(_ id: Int64) throws -> [String: [String?]] {
        let rows = try sqlite(databasePath(id), "SELECT id, title, permalink, pubdate_unix_time, pubdate_is_first_seen FROM items")
        return Dictionary(rows.map { ($0[0] ?? "", Array($0.dropFirst())) }, uniquingKeysWith: { first, _ in first })
    }

    func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    enum HarnessError: Error {
        case noSuchFeed(Int64)
    }
}

/// Rows of a query through the sqlite3 library (read-only), as strings.
func sqlite(_ path: String, _ query: String) throws -> [[String?]] {
    let queue = try DatabaseReadOnly(path: path)
    return try queue.rows(query)
}

/// RSS with the given items: `(guid, title, link?, pubDate?)`.
func rss(_ title: String, items: [(String, String, String?, String?)], extra: String = "") -> String {
    let body = items.map { guid, itemTitle, link, date in
        "<item><guid isPermaLink=\"false\">\(guid)</guid><title>\(itemTitle)</title>"
            + (link.map { "<link>\($0)</link>" } ?? "") + (date.map { "<pubDate>\($0)</pubDate>" } ?? "")
            + "<description>About \(itemTitle)</description></item>"
    }.joined()
    return "<rss version=\"2.0\"><channel><title>\(title)</title><link>https://site.example/</link>\(extra)\(body)</channel></rss>"
}
