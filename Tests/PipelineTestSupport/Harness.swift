import FeedBasics
import FeedFetching
import FeedModel
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import GRDB
import GRDBSQLite
import TestSupport

/// A data directory, a catalog, a configuration allowed to reach 127.0.0.1, and a clock the
/// test moves by hand.
public final class Harness: @unchecked Sendable {
    // `@unchecked Sendable`: `time` is only touched under `lock`.
    public let directory: TemporaryDirectory
    public let catalog: Catalog
    private let lock = NSLock()
    private var time: Int64 = 1_700_000_000
    /// The run's retention; set before a run, never during one.
    public var retention = Retention.keepEverything
    /// Changes to the fetch configuration (limits, timeouts); set before a run.
    public var tuneFetch: (inout FetchConfiguration) -> Void = { _ in }
    /// Feeds parsed at once; set before a run.
    public var parsingLimit = PipelineConfiguration().parsingLimit

    public init() throws {
        directory = try TemporaryDirectory()
        catalog = try Catalog(path: directory.url.path + "/all_feeds.sqlite")
        // As a run holding the lock does: the change log gets its epoch.
        _ = try catalog.settleInterruptedWrites(now: 1_000)
    }

    public var now: Int64 {
        get { lock.withLock { time } }
        set { lock.withLock { time = newValue } }
    }

    public var configuration: PipelineConfiguration {
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
    public func update(_ selection: FeedSelection = .due(limit: nil), dryRun: Bool = false, configuration: PipelineConfiguration? = nil) throws -> Ran {
        let stream = FeedStream()
        let report = try UpdateRun(configuration: configuration ?? self.configuration, catalog: catalog).run(selection, dryRun: dryRun) {
            feed, _, _ in stream.append(feed)
        }
        return Ran(report: report, feeds: stream.feeds)
    }

    /// `rss-create`'s work: read the list, then import it and fetch the new feeds.
    public func create(_ source: String, prune: Bool = false) throws -> Created {
        let list = try FeedList.load(source, configuration: configuration.fetch)
        let stream = FeedStream()
        let report = try CreateRun(configuration: configuration, catalog: catalog).run(feedList: list, prune: prune) {
            feed, _, _ in stream.append(feed)
        }
        return Created(importResult: report.importResult, update: Ran(report: report.update, feeds: stream.feeds))
    }

    /// Adds feeds for these URLs; their feedids in order.
    @discardableResult
    public func add(_ urls: [String]) throws -> [Int64] {
        Array(try catalog.importOutlines(urls.map { CatalogOutline(url: $0) }, prune: false).added)
    }

    public func feed(_ id: Int64) throws -> CatalogFeed {
        guard let feed = try catalog.feed(id: id) else { throw HarnessError.noSuchFeed(id) }
        return feed
    }

    public func databasePath(_ id: Int64) -> String { configuration.feedDatabasePath(id) }

    /// `id → (title, permalink, pubdate)` for every stored item.
    public func items(_ id: Int64) throws -> [String: [String?]] {
        let rows = try sqlite(databasePath(id), "SELECT id, title, permalink, pubdate_unix_time, pubdate_is_first_seen FROM items")
        return Dictionary(rows.map { ($0[0] ?? "", Array($0.dropFirst())) }, uniquingKeysWith: { first, _ in first })
    }

    public func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    public enum HarnessError: Error {
        case noSuchFeed(Int64)
    }
}

/// Rows of a query through the sqlite3 library (read-only), as strings.
public func sqlite(_ path: String, _ query: String) throws -> [[String?]] {
    let queue = try DatabaseReadOnly(path: path)
    return try queue.rows(query)
}

/// RSS with the given items: `(guid, title, link?, pubDate?)`.
public func rss(_ title: String, items: [(String, String, String?, String?)], extra: String = "") -> String {
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
public struct Ran {
    public let report: RunReport
    public let feeds: [FeedReport]

    public init(report: RunReport, feeds: [FeedReport]) {
        self.report = report
        self.feeds = feeds.sorted { $0.feedID < $1.feedID }
    }

    public subscript<Value>(dynamicMember path: KeyPath<RunReport, Value>) -> Value { report[keyPath: path] }
}

/// `rss-create`'s report, with the update's feeds as ``Ran`` has them.
public struct Created {
    public let importResult: ImportResult
    public let update: Ran
}

/// Feed reports from the workers of a run. `@unchecked Sendable`: guarded by `lock`.
private final class FeedStream: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [FeedReport] = []

    public func append(_ feed: FeedReport) { lock.withLock { collected.append(feed) } }
    public var feeds: [FeedReport] { lock.withLock { collected } }
}
