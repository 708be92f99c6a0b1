import FeedFetching
import FeedModel
import FeedNormalization
import FeedParsing
import FeedStorage
import Foundation

/// The update step: chooses the due feeds, fetches them concurrently, and for each fetched
/// feed parses, normalises, writes its database in one transaction, then records the outcome
/// in the catalog. The feed's database is committed before the catalog learns the new
/// validators, so a run killed in between re-fetches that feed next time and the upsert
/// finds its entries already there: nothing is lost or duplicated.
public final class UpdateRun: Sendable {
    public let configuration: PipelineConfiguration
    public let catalog: Catalog

    public init(configuration: PipelineConfiguration, catalog: Catalog) {
        self.configuration = configuration
        self.catalog = catalog
    }

    /// - Parameter progress: called after each feed, from the worker that handled it.
    public func run(
        _ selection: FeedSelection, dryRun: Bool = false,
        progress: (@Sendable (_ feed: FeedReport, _ done: Int, _ total: Int) -> Void)? = nil
    ) throws(PipelineError) -> RunReport {
        let started = ContinuousClock.now
        let now = configuration.clock()
        let feeds: [CatalogFeed]
        do {
            feeds = try catalog.feeds()
        } catch {
            throw .storage(error)
        }
        let present = Set(FeedDatabaseFile.databases(inDirectory: configuration.dataDirectory))
        let withoutDatabase = Set(feeds.filter { $0.lastUpdate != nil && !present.contains($0.feedID) }.map(\.feedID))
        let chosen = UpdateSchedule.select(feeds, selection, now: now, configuration: configuration, withoutDatabase: withoutDatabase)
        // A feed whose database is damaged is not fetched: its file is set aside and the feed
        // is due again at once, to be fetched in full into a new file.
        let collected = ReportCollector(total: chosen.count)
        var fetchable: [CatalogFeed] = []
        var conditions: [FeedFileCondition] = []
        for feed in chosen {
            let path = configuration.feedDatabasePath(feed.feedID)
            let condition = FeedDatabaseFile.condition(of: path)
            if let reason = Self.damage(condition, feed: feed, path: path) {
                let report = setAside(feed, reason: reason, now: now, dryRun: dryRun)
                let done = collected.add(report)
                progress?(report, done, chosen.count)
            } else {
                fetchable.append(feed)
                conditions.append(condition)
            }
        }
        let selected = fetchable
        let requests = zip(selected, conditions).map { request(for: $0, condition: $1) }
        var scheduler = FetchScheduler(
            configuration: configuration.fetch, concurrency: configuration.concurrency,
            perHostLimit: configuration.perHostLimit)
        scheduler.deadline = configuration.deadline.map { started + .milliseconds(Int64($0 * 1000)) }
        let unstarted = scheduler.fetchAll(requests) { [self] index, result in
            let report = process(selected[index], result: consume result, now: now, dryRun: dryRun)
            let done = collected.add(report)
            progress?(report, done, chosen.count)
        }
        if !dryRun, !selected.isEmpty {
            // Only layout changes: a failure here loses nothing, so it is not the run's failure.
            try? catalog.compact()
        }
        let elapsed = ContinuousClock.now - started
        var stoppedBy: StopCause?
        if let signal = configuration.fetch.stop?.raisedBy {
            stoppedBy = .signal(signal)
        } else if !unstarted.isEmpty {
            stoppedBy = .deadline
        }
        return RunReport(
            feeds: collected.reports,
            duration: elapsed.inSeconds,
            notStarted: unstarted.map { selected[$0].feedID },
            stoppedBy: stoppedBy)
    }

    /// Why a feed's database must be set aside, if it must: it is not a usable file, or it is
    /// empty although the feed had been stored (an empty file for a feed never stored is what
    /// a first creation killed early leaves, and is simply filled).
    static func damage(_ condition: FeedFileCondition, feed: CatalogFeed, path: String) -> String? {
        switch condition {
        case .unusable(let reason): return reason
        case .empty where feed.lastUpdate != nil: return "is empty (0 bytes)"
        case .healthy:
            // Checked before a conditional request too: a 304 never opens the file.
            return FeedDatabase.mismatch(at: path, for: feed.identity)?.message
        default: return nil
        }
    }

    /// Validators are sent only when the feed's database is there and healthy: if it was
    /// deleted or set aside, the feed is fetched whole again.
    private func request(for feed: CatalogFeed, condition: FeedFileCondition) -> FetchRequest {
        guard condition == .healthy else { return FetchRequest(url: feed.url) }
        return FetchRequest(
            url: feed.url, etag: feed.state.etag, lastModified: feed.state.lastModified,
            previousBodyHash: feed.state.bodyHash)
    }

    /// Takes the result by value so that a large body is freed once parsed, not when the worker
    /// moves on (see `store`).
    private func process(
        _ feed: CatalogFeed, result: consuming Result<FetchOutcome, FetchError>, now: Int64, dryRun: Bool
    ) -> FeedReport {
        var report = FeedReport(feedID: feed.feedID, url: feed.url, outcome: .unchanged)
        do throws(PipelineError) {
            switch consume result {
            case .failure(let error) where error.kind == .interrupted:
                // Told to stop mid-transfer: not the feed's fault, so no failure is recorded.
                report.outcome = .interrupted
            case .failure(let error):
                report.status = error.status
                report.outcome = .failed(kind: error.kind.rawValue, message: error.message)
                try save(FeedTransition.failed(
                    feed, kind: error.kind.rawValue, message: error.message, status: error.status,
                    retryAfter: error.retryAfter, now: now, configuration: configuration), dryRun: dryRun)
            case .success(let outcome):
                report.bytes = outcome.response.bytesReceived
                report.duration = outcome.response.duration
                report.status = outcome.response.status
                switch consume outcome {
                case .gone(let response):
                    report.outcome = .gone
                    try save(FeedTransition.gone(feed, response: response, now: now), dryRun: dryRun)
                case .notModified(let response):
                    report.movedTo = try saveMoving(
                        FeedTransition.notModified(feed, response: response, now: now, configuration: configuration),
                        response: response, dryRun: dryRun)
                case .fetched(let response):
                    try store(feed, response: consume response, now: now, dryRun: dryRun, report: &report)
                }
            }
        } catch {
            report = recordStorageFailure(feed, error: error, report: report, now: now, dryRun: dryRun)
        }
        return report
    }

    /// A storage failure is the feed's failure like any other: recorded in the catalog with its
    /// kind and retried later. A damaged or foreign database is set aside instead.
    private func recordStorageFailure(
        _ feed: CatalogFeed, error: PipelineError, report: FeedReport, now: Int64, dryRun: Bool
    ) -> FeedReport {
        if case .storage(let storage) = error, storage.kind != .other {
            var result = setAside(feed, reason: storage.message, now: now, dryRun: dryRun)
            (result.bytes, result.duration, result.status) = (report.bytes, report.duration, report.status)
            return result
        }
        var result = report
        result.outcome = .failed(kind: "storage", message: error.description)
        try? save(FeedTransition.failed(
            feed, kind: "storage", message: error.description, status: report.status, retryAfter: nil, now: now,
            configuration: configuration), dryRun: dryRun)
        return result
    }

    /// Renames the feed's database out of the way (never deletes it), clears the validators so
    /// the next run fetches the feed in full into a new file, and records why.
    private func setAside(_ feed: CatalogFeed, reason: String, now: Int64, dryRun: Bool) -> FeedReport {
        let path = configuration.feedDatabasePath(feed.feedID)
        var report = FeedReport(feedID: feed.feedID, url: feed.url, outcome: .unchanged)
        let message: String
        if dryRun {
            message = "\(path) \(reason); would be set aside"
        } else {
            do {
                let moved = try FeedDatabaseFile.setAside(path, at: now)
                message = "\(path) \(reason); set aside as \((moved as NSString).lastPathComponent), refetched in full next run"
            } catch {
                let failure = "\(path) \(reason); could not be set aside: \(error.message)"
                report.outcome = .failed(kind: "storage", message: failure)
                try? save(FeedTransition.failed(
                    feed, kind: "storage", message: failure, status: nil, retryAfter: nil, now: now, configuration: configuration),
                    dryRun: dryRun)
                return report
            }
        }
        report.outcome = .failed(kind: FeedTransition.damagedDatabaseKind, message: message)
        try? save(FeedTransition.databaseSetAside(feed, message: message, now: now), dryRun: dryRun)
        return report
    }

    /// Peak memory per feed is what matters at high concurrency, so each stage frees its input:
    /// the body goes once parsed, and the normaliser consumes the parsed entries one by one.
    private func store(
        _ feed: CatalogFeed, response: consuming FetchResponse, now: Int64, dryRun: Bool, report: inout FeedReport
    ) throws(PipelineError) {
        let parsed: ParsedFeed
        do {
            parsed = try FeedParser.parse(response.takeBody(), charset: response.charset)
        } catch {
            let message = (error as? FeedParseError)?.description ?? "\(error)"
            report.outcome = .failed(kind: "not-a-feed", message: message)
            try save(FeedTransition.failed(
                feed, kind: "not-a-feed", message: message, status: response.status, retryAfter: nil, now: now,
                configuration: configuration), dryRun: dryRun)
            return
        }
        let normalized = FeedNormalizer.normalize(consume parsed, feedURL: response.finalURL)
        let path = configuration.feedDatabasePath(feed.feedID)
        do {
            if dryRun {
                let summary = FeedDatabaseFile.condition(of: path) == .healthy
                    ? try FeedDatabase(path: path, identity: feed.identity).preview(normalized.entries, now: now)
                    : UpsertSummary(inserted: normalized.entries.count)
                report.outcome = .wouldUpdate(summary)
                return
            }
            let summary = try FeedDatabase(path: path, identity: feed.identity).upsert(normalized.entries, now: now)
            report.outcome = .updated(summary)
        } catch {
            throw .storage(error)
        }
        let next = FeedTransition.fetched(feed, response: response, parsed: normalized, now: now, configuration: configuration)
        report.movedTo = try saveMoving(next, response: response, dryRun: dryRun)
    }

    /// Saves the record, moving its URL when permanent redirects have been seen often enough
    /// and no other feed already has the new URL.
    private func saveMoving(_ feed: CatalogFeed, response: FetchResponse, dryRun: Bool) throws(PipelineError) -> String? {
        let sighted = FeedTransition.redirects(feed, response: response, configuration: configuration)
        var next = sighted.feed
        var moved: String?
        if let target = sighted.moveTo {
            do {
                if try catalog.feedID(forURL: target) == nil {
                    next.url = target
                    next.state.redirectTarget = nil
                    next.state.redirectSightings = 0
                    moved = target
                }
            } catch {
                throw .storage(error)
            }
        }
        try save(next, dryRun: dryRun)
        return moved
    }

    private func save(_ feed: CatalogFeed, dryRun: Bool) throws(PipelineError) {
        guard !dryRun else { return }
        do {
            try catalog.save(feed)
        } catch {
            throw .storage(error)
        }
    }
}

/// Reports gathered from many workers. `@unchecked Sendable`: guarded by `lock`.
final class ReportCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [FeedReport] = []
    let total: Int

    init(total: Int) {
        self.total = total
    }

    /// Adds a report; how many are done.
    func add(_ report: FeedReport) -> Int {
        lock.withLock {
            collected.append(report)
            return collected.count
        }
    }

    var reports: [FeedReport] { lock.withLock { collected } }
}
