import FeedBasics
import FeedFetching
import FeedModel
import FeedStorage
import Foundation
import Synchronization

/// The update step: chooses the due feeds (``UpdateSchedule``), and runs each one's update
/// (``FeedUpdate``: plan → check file → fetch → conclude → transition → save) on the
/// scheduler's workers, a bounded number of transfers at a time (``FetchScheduler``).
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
        // The mark of this run's changes (``CatalogChanges``); if it cannot be raised, they
        // take the last run's, which publishers read again all the same.
        if !dryRun { try? catalog.beginChanges(now: now) }
        let (plan, collected, duplicates, otherShardsDatabases, read) = try choose(selection, now: now, dryRun: dryRun)
        var checksValues = false
        if case .feeds = selection { checksValues = true }
        var scheduler = FetchScheduler(
            configuration: configuration.fetch, concurrency: configuration.concurrency,
            perHostLimit: configuration.perHostLimit)
        scheduler.deadline = configuration.deadline.map { Self.deadline($0, after: started) }
        let update = FeedUpdate(
            configuration: configuration, catalog: catalog, now: now, dryRun: dryRun, checksValues: checksValues,
            permits: ParsePermits(limit: configuration.parsingLimit))
        let unstarted = scheduler.fetchEach(hosts: plan.hosts) { index, fetch in
            let feedID = plan.feedIDs[index]
            let report = duplicates[feedID].map { original in
                update.refuseDuplicate(feedID, of: original)
            } ?? update.update(feedID, fetch: fetch)
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
        report.shard = configuration.shard
        report.otherShardsDatabases = otherShardsDatabases
        (report.feedsRead, report.chosenByIndex) = read
        return report
    }

    /// Stores a body a WebSub hub pushed for `feedID` (the signature already checked by the
    /// caller) exactly as a fetched one: the same parser, sanitizer, retention and state rules,
    /// one transaction in the feed's database, then the catalog. It is untrusted feed input like
    /// any other. The feed keeps its validators, so that its next poll is still conditional;
    /// its next poll is counted from now, which is how polling goes on, less often, for a feed
    /// that pushes. The caller holds the data directory's lock (``CatalogAccess/openForUpdate(_:)``).
    public func applyPush(_ feedID: Int64, body: [UInt8], contentType: String?) -> FeedReport {
        let now = configuration.clock()
        try? catalog.beginChanges(now: now)
        var update = FeedUpdate(
            configuration: configuration, catalog: catalog, now: now, dryRun: false, checksValues: false,
            permits: ParsePermits(limit: 1))
        update.pushed = true
        return update.update(feedID) { request, _ in
            var response = FetchResponse(requestedURL: request.url, finalURL: request.url, status: 200)
            (response.contentType, response.etag, response.lastModified) = (contentType, request.etag, request.lastModified)
            (response.body, response.bodyHash, response.bytesReceived) = (body, request.previousBodyHash, body.count)
            return .success(.fetched(response))
        }
    }

    /// The instant `seconds` after `started`, to the millisecond. The commands refuse a deadline
    /// past 10 years; a library caller's longer, infinite or NaN one saturates rather than traps.
    static func deadline(_ seconds: Double, after started: ContinuousClock.Instant) -> ContinuousClock.Instant {
        started + .milliseconds(Int64(saturating: seconds * 1000))
    }

    /// The feeds to fetch (``UpdateSchedule/Plan``: a feedid and a host each, not the feeds'
    /// records), the collector their reports go to, and the feeds listed twice (``DuplicateURLs``).
    /// The catalog is read one row at a time to choose; each feed's record is read again, and
    /// its file checked, by the worker that runs it (``FeedUpdate``). Checked here, one after the
    /// other, the files kept the first transfer of a run over 20,000 feeds waiting 0.9-1.3 s,
    /// and 3.4-4.1 s when they were not in the page cache.
    ///
    /// Under `--shard K/N` only this shard's feeds are considered (``Shard/owns(url:)``);
    /// a feed of this shard without its database here (new to the shard since N changed) is
    /// due at once and fetched in full, as any feed without its database is. The databases of
    /// other shards' feeds are counted, never touched.
    ///
    /// A due run finds its feeds by the schedule's index instead (``chooseDue(_:now:dryRun:)``)
    /// when the catalog says it can be trusted (``CatalogSchedule``); a run that reads every
    /// feed records what the index needs.
    private func choose(
        _ selection: FeedSelection, now: Int64, dryRun: Bool
    ) throws(PipelineError) -> (
        UpdateSchedule.Plan, ReportCollector, duplicates: [Int64: Int64], otherShardsDatabases: Int, read: (feeds: Int, byIndex: Bool)
    ) {
        if case .due = selection, let chosen = try chooseDue(selection, now: now, dryRun: dryRun) {
            return (chosen.plan, ReportCollector(total: chosen.plan.feedIDs.count), chosen.duplicates, 0, (chosen.read, true))
        }
        var read = 0
        let shard = configuration.shard
        let key = UpdateSchedule.key(configuration)
        // Read before the feeds: a change to them meanwhile makes the next run read them all.
        let feedsVersion = try? catalog.feedsVersion()
        let recompute = shard.isAll && !dryRun && (try? catalog.schedule())?.key != key
        var nextDue: [(feedID: Int64, due: Int64)] = []
        let present = Set(FeedDatabaseFile.databases(inDirectory: configuration.dataDirectory))
        var requested: Set<Int64> = []
        if case .feeds(let ids) = selection { requested = Set(ids) }
        var choice = UpdateSchedule.Choice(selection, now: now, configuration: configuration)
        var spellings = DuplicateURLs()
        var otherShardsDatabases = 0
        var otherShardsFeeds: [OtherShardsFeeds.Feed] = []
        try rethrowing(
            try catalog.forEachFeed { feed in
                read += 1
                spellings.see(feed)
                guard shard.owns(url: feed.url) else {
                    if present.contains(feed.feedID) { otherShardsDatabases += 1 }
                    if requested.contains(feed.feedID) {
                        let owner = ShardAssignment.shardIndex(ofURL: feed.url, count: shard.count)
                        otherShardsFeeds.append(.init(feedID: feed.feedID, url: feed.url, owner: owner))
                    }
                    return
                }
                choice.consider(feed, hasNoDatabase: feed.lastUpdate != nil && !present.contains(feed.feedID))
                if shard.isAll && !dryRun { nextDue.append((feed.feedID, UpdateSchedule.storedNextDue(feed, now: now, configuration: configuration))) }
            }, as: PipelineError.storage)
        if case .feeds(let ids) = selection {
            try PipelineError.refuseUnknown(ids, known: choice.found.union(otherShardsFeeds.map(\.feedID)))
            if !otherShardsFeeds.isEmpty { throw .otherShardsFeeds(OtherShardsFeeds(shard: shard, feeds: otherShardsFeeds)) }
        }
        let plan = choice.plan()
        let duplicates = try rethrowing(try spellings.confirmed(in: catalog), as: PipelineError.storage)
        if shard.isAll && !dryRun {
            // What the next due runs need to find their feeds by the index; if it cannot be
            // written, they read every feed, as this one did. With the same settings, only the
            // rows without a time get one (changed by hand: issue 51, each due run read them);
            // a feed fetched now gets its own with its save.
            try? catalog.recordFullReading(
                key: key, feedsVersion: feedsVersion ?? nil, now: now, duplicates: duplicates, nextDue: recompute ? nextDue : nil)
            if !recompute { try? catalog.recordNextDue(nextDue) }
        }
        return (plan, ReportCollector(total: plan.feedIDs.count), duplicates, otherShardsDatabases, (read, false))
    }

    /// The due feeds found by the schedule's index, when it can be trusted (unsharded, the same
    /// settings, no change to the `feeds` table and no clock set back since a run last read
    /// every feed): only the due feeds' rows are read, and only their files checked. `nil`:
    /// read every feed. A feed whose database was removed by hand is fetched in full when it
    /// is next due (a run that reads every feed, `--all` or `--feed`, fetches it at once).
    private func chooseDue(
        _ selection: FeedSelection, now: Int64, dryRun: Bool
    ) throws(PipelineError) -> (plan: UpdateSchedule.Plan, duplicates: [Int64: Int64], read: Int)? {
        guard configuration.shard.isAll,
            let schedule = try? catalog.schedule(), schedule.isTrusted(key: UpdateSchedule.key(configuration), now: now)
        else { return nil }
        var choice = UpdateSchedule.Choice(selection, now: now, configuration: configuration)
        var read = 0
        var nextDue: [(feedID: Int64, due: Int64)] = []
        try rethrowing(
            try catalog.forEachFeedDue(at: now) { feed in
                read += 1
                choice.consider(feed, hasNoDatabase: feed.lastUpdate != nil && !Self.exists(configuration.feedDatabasePath(feed.feedID)))
                nextDue.append((feed.feedID, UpdateSchedule.storedNextDue(feed, now: now, configuration: configuration)))
            }, as: PipelineError.storage)
        let duplicates = try rethrowing(try catalog.recordedDuplicates(), as: PipelineError.storage)
        if !dryRun {
            // The rows read without a next due time get one (a feed fetched now gets its own with
            // its save); if it cannot be written, the next run reads them again.
            try? catalog.recordNextDue(nextDue)
            try? catalog.recordScheduleClock(now)
        }
        return (choice.plan(), duplicates, read)
    }

    /// A name in the directory, whatever it is (a dangling link too), as a listing would show it.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}

/// The run's tally and its notable reports, from many workers.
final class ReportCollector: Sendable {
    private let state = Mutex<(tally: RunTally, notable: [FeedReport])>((RunTally(), []))
    let total: Int

    init(total: Int) {
        self.total = total
    }

    /// Counts a report, keeping it if it is notable; how many are done.
    func add(_ report: FeedReport) -> Int {
        let keep = RunReport.isNotable(report)
        return state.withLock { state in
            state.tally.add(report)
            if keep { state.notable.append(report) }
            return state.tally.feeds
        }
    }

    var snapshot: (tally: RunTally, notable: [FeedReport]) { state.withLock { $0 } }
}
