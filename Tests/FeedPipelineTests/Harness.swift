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

    /// An update run, with `configuration` instead of the harness's own when given.
    func update(_ selection: FeedSelection = .due(limit: nil), dryRun: Bool = false, configuration: PipelineConfiguration? = nil) throws -> Ran {
        let stream = FeedStream()
        let report = try UpdateRun(configuration: configuration ?? self.configuration, catalog: catalog).run(selection, dryRun: dryRun) {
            feed, _, _ in stream.append(feed)
        }
        return Ran(report: report, feeds: stream.feeds)
    }

    /// `rss-create`'s work: read the list, then import it and fetch the new feeds.
    func create(_ source: String, prune: Bool = false) throws -> Created {
        let list = try FeedList.load(source, configuration: configuration.fetch)
        let stream = FeedStream()
        let report = try CreateRun(configuration: configuration, catalog: catalog).run(feedList: list, prune: prune) {
            feed, _, _ in stream.append(feed)
        }
        return Created(importResult: report.importResult, update: Ran(report: report.update, feeds: stream.feeds))
    }

    /// Adds feeds for these URLs; their feedids in order.
    @discardableResult
    func add(_ urls: [String]) throws -> [Int64] {
        Array(try catalog.importOutlines(urls.map { CatalogOutline(url: $0) }, prune: false).added)
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

/// A run's report, with every feed's own report as the run handed it to its progress
/// callback (the run report keeps only the notable ones), in feedid order.
@dynamicMemberLookup
struct Ran {
    let report: RunReport
    let feeds: [FeedReport]

    init(report: RunReport, feeds: [FeedReport]) {
        self.report = report
        self.feeds = feeds.sorted { $0.feedID < $1.feedID }
    }

    subscript<Value>(dynamicMember path: KeyPath<RunReport, Value>) -> Value { report[keyPath: path] }
}

/// `rss-create`'s report, with the update's feeds as ``Ran`` has them.
struct Created {
    let importResult: ImportResult
    let update: Ran
}

/// Feed reports from the workers of a run. `@unchecked Sendable`: guarded by `lock`.
private final class FeedStream: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [FeedReport] = []

    func append(_ feed: FeedReport) { lock.withLock { collected.append(feed) } }
    var feeds: [FeedReport] { lock.withLock { collected } }
}
