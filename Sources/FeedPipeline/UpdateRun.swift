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
        let (plan, collected, duplicates) = try choose(selection, now: now)
        // `--feed`: a person asked for these feeds by id, as `rss-publish` advises for a feed
        // it refused for a wrongly typed value: their files' values are checked and repaired.
        let checksValues: Bool
        if case .feeds = selection { checksValues = true } else { checksValues = false }
        var scheduler = FetchScheduler(
            configuration: configuration.fetch, concurrency: configuration.concurrency,
            perHostLimit: configuration.perHostLimit)
        scheduler.deadline = configuration.deadline.map { started + .milliseconds(Int64($0 * 1000)) }
        let permits = ParsePermits(limit: configuration.parsingLimit)
        let unstarted = scheduler.fetchEach(hosts: plan.hosts) { [self] index, fetch in
            let feedID = plan.feedIDs[index]
            let report = duplicates[feedID].map { original in
                refuseDuplicate(feedID, of: original, now: now, dryRun: dryRun)
            } ?? update(feedID, fetch: fetch, now: now, dryRun: dryRun, checksValues: checksValues, permits: permits)
            let done = collected.add(report)
            progress?(report, done, collected.total)
        }
        if !dryRun, collected.total > 0 {
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
        let (tally, notable) = collected.snapshot
        var report = RunReport(
            tally: tally, notable: notable,
            duration: elapsed.inSeconds,
            notStarted: unstarted.map { plan.feedIDs[$0] },
            stoppedBy: stoppedBy)
        report.catalogRepairs = catalog.repairs
        return report
    }

    /// The feeds to fetch (``UpdateSchedule/Plan``: a feedid and a host each, not the feeds'
    /// records), the collector their reports go to, and the feeds listed twice (``DuplicateURLs``).
    /// The catalog is read one row at a time to choose; each feed's record is read again, and
    /// its file checked, by the worker that runs it
    /// (``update(_:fetch:now:dryRun:checksValues:permits:)``). Checked here, one after the
    /// other, the files kept the first transfer of a run over 20,000 feeds waiting 0.9-1.3 s,
    /// and 3.4-4.1 s when they were not in the page cache.
    private func choose(
        _ selection: FeedSelection, now: Int64
    ) throws(PipelineError) -> (UpdateSchedule.Plan, ReportCollector, duplicates: [Int64: Int64]) {
        let present = Set(FeedDatabaseFile.databases(inDirectory: configuration.dataDirectory))
        var choice = UpdateSchedule.Choice(selection, now: now, configuration: configuration)
        var spellings = DuplicateURLs()
        do {
            try catalog.forEachFeed { feed in
                spellings.see(feed)
                choice.consider(feed, hasNoDatabase: feed.lastUpdate != nil && !present.contains(feed.feedID))
            }
        } catch {
            throw .storage(error)
        }
        if case .feeds(let ids) = selection { try PipelineError.refuseUnknown(ids, known: choice.found) }
        let plan = choice.plan()
        let duplicates: [Int64: Int64]
        do {
            duplicates = try spellings.confirmed(in: catalog)
        } catch {
            throw .storage(error)
        }
        return (plan, ReportCollector(total: plan.feedIDs.count), duplicates)
    }

    /// A feed listed twice under URLs that are one once normalised (written into the catalog
    /// by hand: imports and `rss-feeds add` never list one twice) is not fetched under its
    /// second feedid, which would fetch and publish the same items twice. It fails, so that it
    /// is reported and shown failing until a person removes one of the two.
    private func refuseDuplicate(_ feedID: Int64, of original: Int64, now: Int64, dryRun: Bool) -> FeedReport {
        guard let feed = try? catalog.feed(id: feedID) else {
            return FeedReport(feedID: feedID, url: "", outcome: .failed(kind: .storage, message: "feed \(feedID) is no longer in the catalog"))
        }
        let message = "the same feed as feed \(original) (their URLs are one once normalised: \(FeedURLKey.key(feed.url))); "
            + "not fetched twice: remove one with rss-feeds remove"
        let event = FeedEvent.failed(kind: .duplicate, message: message, status: nil, retryAfter: nil)
        var report = FeedReport(feedID: feedID, url: feed.url, outcome: event.reportedOutcome ?? .unchanged)
        do {
            try record(feed, after: event, now: now, dryRun: dryRun)
        } catch {
            report.outcome = .failed(kind: .storage, message: error.description)
        }
        return report
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

    /// One feed's way through the run, start to end: its record read from the catalog → its
    /// file checked (a damaged one is set aside, and the feed not fetched: it is due again at
    /// once, to be fetched in full into a new file) → the fetch, with the body parsed,
    /// normalised and stored as it arrives (``FeedIngest``) → the catalog's next record.
    private func update(
        _ feedID: Int64,
        fetch: (FetchRequest, FetchBodyConsumer?) -> Result<FetchOutcome, FetchError>, now: Int64, dryRun: Bool,
        checksValues: Bool, permits: ParsePermits
    ) -> FeedReport {
        let feed: CatalogFeed
        do {
            guard let found = try catalog.feed(id: feedID) else {
                return FeedReport(feedID: feedID, url: "", outcome: .failed(kind: .storage, message: "feed \(feedID) is no longer in the catalog"))
            }
            feed = found
        } catch {
            return FeedReport(feedID: feedID, url: "", outcome: .failed(kind: .storage, message: error.description))
        }
        let path = configuration.feedDatabasePath(feed.feedID)
        let condition = FeedDatabaseFile.condition(of: path)
        if let reason = Self.damage(condition, feed: feed, path: path) {
            return setAside(feed, reason: reason, now: now, dryRun: dryRun)
        }
        var notes = feed.unreadable.map { "catalog: \($0); read as absent" }
        if let anomaly = UpdateSchedule.clockAnomaly(feed, now: now, configuration: configuration) { notes.append(anomaly) }
        if checksValues, condition == .healthy {
            do throws(StorageError) {
                let database = try FeedDatabase(path: path, identity: feed.identity)
                notes += (database.repairs + (try database.repairValues(now: now, writes: !dryRun))).map { "\(path): \($0)" }
            } catch {
                if error.setsAside { return setAside(feed, reason: error.message, now: now, dryRun: dryRun) }
                let event = FeedEvent.failed(kind: error.failureKind, message: error.description, status: nil, retryAfter: nil)
                var report = FeedReport(feedID: feed.feedID, url: feed.url, outcome: event.reportedOutcome ?? .unchanged)
                report.notes = notes
                // Recorded like any failure, and retried with backoff; a catalog that cannot record it retries next run.
                _ = try? record(feed, after: event, now: now, dryRun: dryRun)
                return report
            }
        }
        let request = request(for: feed, condition: condition)
        var report = FeedReport(feedID: feed.feedID, url: feed.url, outcome: .unchanged)
        report.notes = notes
        let ingest = FeedIngest(
            feed: feed, path: path, now: now,
            retention: configuration.retention.overridden(by: feed.state.retention), dryRun: dryRun, permits: permits)
        let event: FeedEvent
        switch fetch(request, ingest) {
        case .failure(let error) where error.kind == .interrupted:
            // Told to stop mid-transfer: not the feed's fault, so nothing is recorded.
            ingest.cancel()
            report.outcome = .interrupted
            (report.status, report.duration) = (error.status, error.duration)
            return report
        case .failure(let error):
            (report.status, report.duration) = (error.status, error.duration)
            event = ingest.failureThatStoppedTheTransfer()
                ?? .failed(kind: error.kind, message: error.message, status: error.status, retryAfter: error.retryAfter)
        case .success(let outcome):
            (report.bytes, report.duration, report.status) =
                (outcome.response.bytesReceived, outcome.response.duration, outcome.response.status)
            switch outcome {
            case .gone(let response):
                event = .gone(response)
            case .notModified(let response):
                // A body that hashed as last time's may have been read in part: thrown away.
                ingest.cancel()
                event = .notModified(response)
            case .fetched(let response):
                let stored = ingest.finish(response)
                event = stored.event
                if let outcome = stored.outcome { report.outcome = outcome }
                // Repairs made while the feed was stored (retention reads every row's values).
                switch stored.outcome {
                case .updated(let summary)?, .wouldUpdate(let summary)?: report.notes += summary.repairs.map { "\(path): \($0)" }
                default: break
                }
            }
        }
        if case .databaseSetAside(let reason) = event {
            // A damaged or foreign database found while writing: set aside like one found before.
            var setAside = setAside(feed, reason: reason, now: now, dryRun: dryRun)
            (setAside.bytes, setAside.duration, setAside.status) = (report.bytes, report.duration, report.status)
            return setAside
        }
        if let outcome = event.reportedOutcome { report.outcome = outcome }
        do {
            report.movedTo = try record(feed, after: event, now: now, dryRun: dryRun)
        } catch {
            // The catalog could not record the outcome: the feed is due again next run.
            report.outcome = .failed(kind: .storage, message: error.description)
        }
        return report
    }

    /// Saves the feed's next record (nothing in a dry run). The feed's database is committed
    /// before this, so a run killed in between refetches the feed and finds its entries there.
    @discardableResult
    private func record(_ feed: CatalogFeed, after event: FeedEvent, now: Int64, dryRun: Bool) throws(StorageError) -> String? {
        let next = try FeedTransition.next(feed, after: event, now: now, configuration: configuration) { url throws(StorageError) in
            try catalog.feedID(forURL: url) != nil
        }
        if !dryRun { try catalog.save(next.feed) }
        return next.movedTo
    }

    /// Renames the feed's database out of the way (never deletes it), clears the validators so
    /// the next run fetches the feed in full into a new file, and records why.
    private func setAside(_ feed: CatalogFeed, reason: String, now: Int64, dryRun: Bool) -> FeedReport {
        let path = configuration.feedDatabasePath(feed.feedID)
        var report = FeedReport(feedID: feed.feedID, url: feed.url, outcome: .unchanged)
        let event: FeedEvent
        if dryRun {
            event = .databaseSetAside(message: "\(path) \(reason); would be set aside")
        } else {
            do {
                let moved = try FeedDatabaseFile.setAside(path, at: now)
                event = .databaseSetAside(
                    message: "\(path) \(reason); set aside as \((moved as NSString).lastPathComponent), refetched in full next run")
            } catch {
                event = .failed(kind: .storage, message: "\(path) \(reason); could not be set aside: \(error.message)", status: nil, retryAfter: nil)
            }
        }
        if let outcome = event.reportedOutcome { report.outcome = outcome }
        // The set-aside is already reported; a catalog that cannot record it retries next run.
        _ = try? record(feed, after: event, now: now, dryRun: dryRun)
        return report
    }
}

/// The run's tally and its notable reports, from many workers. `@unchecked Sendable`: guarded
/// by `lock`.
final class ReportCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var tally = RunTally()
    private var notable: [FeedReport] = []
    let total: Int

    init(total: Int) {
        self.total = total
    }

    /// Counts a report, keeping it if it is notable; how many are done.
    func add(_ report: FeedReport) -> Int {
        let keep = RunReport.isNotable(report)
        return lock.withLock {
            tally.add(report)
            if keep { notable.append(report) }
            return tally.feeds
        }
    }

    var snapshot: (tally: RunTally, notable: [FeedReport]) { lock.withLock { (tally, notable) } }
}
