import FeedBasics
import FeedFetching
import FeedModel
import FeedStorage
import Foundation

/// One feed's update, read top to bottom: plan (its record, from the catalog) → check its
/// file → fetch, the body streaming into the feed's ingest → conclude (the ingest's one call)
/// → transition (``FeedTransition``) → save. The feed's database is committed before the
/// catalog learns the new validators, so a run killed in between fetches the feed again next
/// time and the upsert finds its entries already there: nothing is lost or duplicated.
struct FeedUpdate: Sendable {
    let configuration: PipelineConfiguration
    let catalog: Catalog
    let now: Int64
    let dryRun: Bool
    /// `--feed`: a person asked for these feeds by id, as `rss-publish` advises for a feed it
    /// refused for a wrongly typed value: their files' values are checked and repaired.
    let checksValues: Bool
    let permits: ParsePermits
    /// The body was pushed by a WebSub hub (``UpdateRun/applyPush(_:body:contentType:)``), not
    /// fetched: a pushed body that omits the feed's hub links keeps the ones it had.
    var pushed = false

    func update(_ feedID: Int64, fetch: FetchScheduler.Fetch) -> FeedReport {
        // Plan: the feed's record as the catalog has it now, and the request it makes.
        let feed: CatalogFeed
        switch plan(feedID) {
        case .success(let found): feed = found
        case .failure(let refused): return refused.report
        }
        let path = configuration.feedDatabasePath(feed.feedID)

        // Check the feed's file: a damaged one is set aside, and the feed not fetched (it is
        // due again at once, to be fetched in full into a new file).
        let condition: FeedFileCondition
        var report = FeedReport(feedID: feed.feedID, url: feed.url, outcome: .unchanged)
        switch checkFile(of: feed, at: path) {
        case .usable(let found, let notes): (condition, report.notes) = (found, notes)
        case .unusable(let settled): return settled
        }

        // Fetch: the body is parsed, normalised and stored as it arrives.
        let ingest = FeedIngest(
            into: FeedDatabaseWriter(
                feed: feed, path: path, now: now, retention: configuration.retention.overridden(by: feed.state.retention),
                dryRun: dryRun, changes: catalog),
            now: now, permits: permits)
        let fetched = fetch(request(for: feed, condition: condition), ingest)

        // Conclude: the ingest reads what is left and commits, or says why it could not.
        let concluded = ingest.conclude(BodyEnd(fetched))
        let event: FeedEvent
        var itemsChanged = false
        switch fetched {
        case .success(let outcome):
            (report.bytes, report.duration, report.status) = (outcome.response.bytesReceived, outcome.response.duration, outcome.response.status)
        case .failure(let error):
            (report.status, report.duration) = (error.status, error.duration)
        }
        switch (fetched, concluded) {
        case (.failure(let error), _) where error.kind == .interrupted:
            // Told to stop mid-transfer: not the feed's fault, so nothing is recorded.
            report.outcome = .interrupted
            return report
        case (_, .failed(let failure, let status)):
            // First: the ingest's failure may be why the transfer stopped.
            event = failure.event(status: status)
        case (.success(.fetched(let response)), .read(let read, let summary)):
            event = .fetched(response, read.normalized)
            itemsChanged = summary.changed
            report.outcome = dryRun ? .wouldUpdate(summary) : .updated(summary)
            // Repairs made while the feed was stored (retention reads every row's values).
            report.notes += summary.repairs.map { "\(path): \($0)" }
        case (.success(.fetched(let response)), .none):
            // Not expected (a whole body is read or refused), and not a reason to stop the run:
            // recorded as the feed's failure, retried on the next run like any other.
            event = .failed(kind: .notAFeed, message: "the body ended without being read", status: response.status, retryAfter: nil)
        case (.success(.notModified(let response)), _):
            // A body that hashed as last time's may have been read in part: thrown away.
            event = .notModified(response)
        case (.success(.gone(let response)), _):
            event = .gone(response)
        case (.failure(let error), _):
            event = .failed(kind: error.kind, message: error.message, status: error.status, retryAfter: error.retryAfter)
        }
        if case .databaseSetAside(let reason) = event {
            // A damaged or foreign database found while writing: set aside like one found before.
            var setAside = setAside(feed, reason: reason)
            (setAside.bytes, setAside.duration, setAside.status) = (report.bytes, report.duration, report.status)
            return setAside
        }
        if let outcome = event.reportedOutcome { report.outcome = outcome }

        // Transition and save.
        do {
            report.movedTo = try record(feed, after: event, itemsChanged: itemsChanged)
            if let held = movedToOtherShard(feed, after: event) { report.notes.append(held) }
        } catch {
            // The catalog could not record the outcome: the feed is due again next run.
            report.outcome = .failed(kind: .storage, message: error.description)
        }
        return report
    }

    /// A feed listed twice under URLs that are one once normalised (written into the catalog
    /// by hand: imports and `rss-feeds add` never list one twice) is not fetched under its
    /// second feedid, which would fetch and publish the same items twice. It fails, so that it
    /// is reported and shown failing until a person removes one of the two.
    func refuseDuplicate(_ feedID: Int64, of original: Int64) -> FeedReport {
        guard let feed = try? catalog.feed(id: feedID) else { return Self.gone(feedID) }
        let message = "the same feed as feed \(original) (their URLs are one once normalised: \(FeedURLKey.key(feed.url))); "
            + "not fetched twice: remove one with rss-feeds remove"
        let event = FeedEvent.failed(kind: .duplicate, message: message, status: nil, retryAfter: nil)
        var report = FeedReport(feedID: feedID, url: feed.url, outcome: event.reportedOutcome ?? .unchanged)
        do {
            try record(feed, after: event)
        } catch {
            report.outcome = .failed(kind: .storage, message: error.description)
        }
        return report
    }

    /// Why a feed that permanent redirects have led to one URL long enough to be moved was
    /// not moved: the URL's host is another shard's (``FeedTransition/crossesShards(from:to:configuration:)``).
    private func movedToOtherShard(_ feed: CatalogFeed, after event: FeedEvent) -> String? {
        guard let response = event.response, response.movedPermanently, case let target = response.finalURL,
            feed.state.redirectTarget == target,
            feed.state.redirectSightings.saturatingAdd(1) >= configuration.redirectSightingsToMove,
            FeedTransition.crossesShards(from: feed.url, to: target, configuration: configuration)
        else { return nil }
        let owner = ShardAssignment.shardIndex(ofURL: target, count: configuration.shard.count)
        return "permanent redirects lead to \(target), a host of shard \(owner)/\(configuration.shard.count): not moved "
            + "(the other shards' catalogs still list the old URL); change the feed list on every shard (docs/sharding.md)"
    }

    /// A feed's record could not be read: the report that says so.
    struct Unplanned: Error {
        var report: FeedReport
    }

    private func plan(_ feedID: Int64) -> Result<CatalogFeed, Unplanned> {
        do throws(StorageError) {
            guard let found = try catalog.feed(id: feedID) else { return .failure(Unplanned(report: Self.gone(feedID))) }
            return .success(found)
        } catch {
            return .failure(Unplanned(report: FeedReport(feedID: feedID, url: "", outcome: .failed(kind: .storage, message: error.description))))
        }
    }

    private static func gone(_ feedID: Int64) -> FeedReport {
        FeedReport(feedID: feedID, url: "", outcome: .failed(kind: .storage, message: "feed \(feedID) is no longer in the catalog"))
    }

    /// What checking a feed's file came to.
    private enum FileCheck {
        /// Fetch the feed; `notes` for the report.
        case usable(FeedFileCondition, notes: [String])
        /// Not fetched: the file was set aside, or its values could not be checked.
        case unusable(FeedReport)
    }

    /// The file's condition, and what a person should know: values the catalog could not
    /// read, a clock set back, values repaired in the file (`--feed`).
    private func checkFile(of feed: CatalogFeed, at path: String) -> FileCheck {
        let condition = FeedDatabaseFile.condition(of: path)
        if let reason = Self.damage(condition, feed: feed, path: path) {
            return .unusable(setAside(feed, reason: reason))
        }
        var notes = feed.unreadable.map { "catalog: \($0); read as absent" }
        // A file this run may not write (root ran it by hand once) is said before fetching
        // anything: one line with the fix, its own kind, no backoff (``FeedTransition``).
        if !dryRun, let refusal = StorageError.notWritable(path) {
            let event = FeedEvent.failed(kind: refusal.failureKind, message: refusal.description, status: nil, retryAfter: nil)
            var report = FeedReport(feedID: feed.feedID, url: feed.url, outcome: event.reportedOutcome ?? .unchanged)
            report.notes = notes
            _ = try? record(feed, after: event)
            return .unusable(report)
        }
        if let anomaly = UpdateSchedule.clockAnomaly(feed, now: now, configuration: configuration) { notes.append(anomaly) }
        guard checksValues, condition == .healthy else { return .usable(condition, notes: notes) }
        do throws(StorageError) {
            let database = try FeedDatabase(path: path, identity: feed.identity)
            // Repairs give rows new change numbers: a change the next publication must read.
            if !dryRun { try catalog.markWriting(feed.feedID) }
            notes += (database.repairs + (try database.repairValues(now: now, writes: !dryRun))).map { "\(path): \($0)" }
            return .usable(condition, notes: notes)
        } catch {
            if error.setsAside { return .unusable(setAside(feed, reason: error.message)) }
            let event = FeedEvent.failed(kind: error.failureKind, message: error.description, status: nil, retryAfter: nil)
            var report = FeedReport(feedID: feed.feedID, url: feed.url, outcome: event.reportedOutcome ?? .unchanged)
            report.notes = notes
            // Recorded like any failure, and retried with backoff; a catalog that cannot record it retries next run.
            _ = try? record(feed, after: event)
            return .unusable(report)
        }
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

    /// The transition and the save: the feed's next record, saved (nothing in a dry run).
    /// The feed's database is committed before this, so a run killed in between fetches the
    /// feed again and finds its entries there.
    @discardableResult
    private func record(_ feed: CatalogFeed, after event: FeedEvent, itemsChanged: Bool = false) throws(StorageError) -> String? {
        var next = try FeedTransition.next(feed, after: event, now: now, configuration: configuration, itemsChanged: itemsChanged) {
            url throws(StorageError) in
            try catalog.feedID(forURL: url) != nil
        }
        if pushed, next.feed.state.websubHub == nil {
            (next.feed.state.websubHub, next.feed.state.websubTopic) = (feed.state.websubHub, feed.state.websubTopic)
        }
        var nextDue = UpdateSchedule.storedNextDue(next.feed, now: now, configuration: configuration)
        // A feed whose database was set aside is due at once, as any feed without its database.
        if case .databaseSetAside = event { nextDue = now }
        if !dryRun { try catalog.save(next.feed, nextDue: nextDue) }
        return next.movedTo
    }

    /// Renames the feed's database out of the way (never deletes it), clears the validators so
    /// the next run fetches the feed in full into a new file, and records why.
    private func setAside(_ feed: CatalogFeed, reason: String) -> FeedReport {
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
        _ = try? record(feed, after: event)
        return report
    }
}

extension BodyEnd {
    /// How a fetch left the body it streamed into an ingest.
    init(_ fetched: Result<FetchOutcome, FetchError>) {
        switch fetched {
        case .failure(let error) where error.kind == .interrupted: self = .discarded
        case .failure: self = .cutShort
        case .success(.fetched(let response)): self = .complete(held: response.heldBody)
        case .success(.notModified), .success(.gone): self = .discarded
        }
    }
}

extension IngestFailure {
    /// A damaged or foreign file is set aside; a newer one is left alone; any other failure
    /// is the feed's.
    func event(status: Int?) -> FeedEvent {
        switch self {
        case .body(let error):
            return .failed(kind: error.kind, message: error.message, status: status, retryAfter: nil)
        case .notAFeed(let error):
            return .failed(kind: .notAFeed, message: error.description, status: status, retryAfter: nil)
        case .storage(let error):
            if error.setsAside { return .databaseSetAside(message: error.message) }
            return .failed(kind: error.failureKind, message: error.description, status: status, retryAfter: nil)
        }
    }
}
