import FeedFetching
import FeedModel
import FeedNormalization
import FeedParsing
import FeedStorage
import Foundation

/// One feed's body on its way into the feed's database while it downloads: bytes → parser
/// → each entry normalised → written in the feed's one transaction. Nothing holds the feed
/// whole, and the transaction commits only once the fetch has succeeded and the document
/// has been read to its end (``finish(_:)``); anything else rolls it back (``cancel()``).
///
/// The database is opened at the first entry, so a body that is no feed at all never opens
/// it; a feed's first database appears under its name only once committed (``FeedDatabase``).
final class FeedIngest: FetchBodyConsumer {
    private let feed: CatalogFeed
    private let path: String
    private let now: Int64
    private let retention: Retention
    private let dryRun: Bool
    private let permits: ParsePermits
    private var parser: FeedStreamParser?
    private var normalizer: EntryNormalizer
    /// Keeps the feed's database open while it lives.
    private var upsert: FeedUpsert?
    /// Entries counted instead of stored: a dry run for a feed without a healthy database.
    private var counted = 0
    private var storageFailure: StorageError?
    private var status = 200

    init(feed: CatalogFeed, path: String, now: Int64, retention: Retention, dryRun: Bool, permits: ParsePermits) {
        (self.feed, self.path, self.now, self.retention, self.dryRun) = (feed, path, now, retention, dryRun)
        self.permits = permits
        normalizer = EntryNormalizer(feedURL: nil, now: now)
    }

    deinit { cancel() }

    func start(finalURL: String, status: Int, contentType: String?) {
        self.status = status
        normalizer = EntryNormalizer(feedURL: finalURL, now: now)
        parser = FeedStreamParser(charset: FetchResponse.charset(ofContentType: contentType)) { [unowned self] entry, feed in
            store(entry, of: feed)
        }
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let parser, storageFailure == nil else { return false }
        parser.append(bytes)
        return storageFailure == nil && !parser.isStopped
    }

    /// A body small enough to be held comes back with the response (see
    /// ``FetchBodyConsumer/takesSmallBodiesAfterTheFetch``): parsed after the fetch, so the
    /// feed's transfer slot goes to the next feed meanwhile: parsed inside the fetch, they
    /// kept the slot busy for the parse too.
    var takesSmallBodiesAfterTheFetch: Bool { true }

    /// After a fetch that brought a body: reads the document to its end and commits. A held
    /// body (compressed, as it came) is inflated and parsed here, with one of the run's
    /// ``ParsePermits``; the commit (its syncs are waits, not work) needs none.
    /// - Returns: the event for the catalog, and the run report's outcome when stored.
    func finish(_ response: FetchResponse) -> (event: FeedEvent, outcome: FeedReport.Outcome?) {
        let read: Result<ParsedFeed, FeedParseError>
        var bodyFailure: FetchError?
        if parser == nil {
            read = permits.withPermit {
                start(finalURL: response.finalURL, status: response.status, contentType: response.contentType)
                do throws(FetchError) {
                    // Held compressed until now: inflated piece by piece into the parser.
                    try response.withDecodedBody { receive($0) }
                } catch {
                    bodyFailure = error
                }
                return readToEnd()
            }
        } else {
            read = readToEnd()
        }
        if let bodyFailure {
            // Too large once inflated, or damaged: nothing of it is stored, nor its validators.
            cancel()
            return (.failed(kind: bodyFailure.kind, message: bodyFailure.message, status: response.status, retryAfter: nil), nil)
        }
        let parsed: ParsedFeed
        switch read {
        case .success(let feed):
            parsed = feed
        case .failure(let error):
            cancel()
            return (Self.notAFeed(error, status: response.status), nil)
        }
        do throws(StorageError) {
            if let storageFailure { throw storageFailure }
            let summary = try openUpsert()?.commit() ?? UpsertSummary(inserted: counted)
            let header = FeedNormalizer.header(parsed, feedURL: response.finalURL)
            return (.fetched(response, header), dryRun ? .wouldUpdate(summary) : .updated(summary))
        } catch {
            cancel()
            return (Self.event(for: error, status: response.status), nil)
        }
    }

    /// The document read to its end: the feed, or why it is none (`.empty` when no byte came).
    private func readToEnd() -> Result<ParsedFeed, FeedParseError> {
        guard let parser else { return .failure(.empty) }
        do {
            return .success(try parser.finish())
        } catch {
            return .failure(error)
        }
    }

    /// After a fetch that failed: why, when this ingest is the reason it stopped (the document
    /// is not a feed, or its database could not take it). Rolls back either way.
    func failureThatStoppedTheTransfer() -> FeedEvent? {
        defer { cancel() }
        if let storageFailure { return Self.event(for: storageFailure, status: status) }
        guard let parser, parser.isStopped else { return nil }
        do {
            _ = try parser.finish()
            return nil
        } catch {
            return Self.notAFeed(error, status: status)
        }
    }

    /// Throws away whatever was written (a new file, whole).
    func cancel() {
        upsert?.cancel()
        upsert = nil
    }

    private func store(_ parsedEntry: consuming ParsedEntry, of parsedFeed: ParsedFeed) {
        guard storageFailure == nil else { return }
        // Handed on: the parsed text is let go as soon as it is sanitised, before the write.
        guard let entry = normalizer.normalize(consume parsedEntry, in: parsedFeed) else { return }
        do throws(StorageError) {
            guard let upsert = try openUpsert() else {
                counted += 1
                return
            }
            try upsert.add(entry)
        } catch {
            storageFailure = error
        }
    }

    /// The feed's transaction, opened at the first use; `nil` in a dry run without a healthy file.
    private func openUpsert() throws(StorageError) -> FeedUpsert? {
        if let upsert { return upsert }
        let condition = FeedDatabaseFile.condition(of: path)
        if dryRun, condition != .healthy { return nil }
        let database = try FeedDatabase(path: path, identity: feed.identity)
        upsert = try database.beginUpsert(now: now, retention: retention, writes: !dryRun)
        return upsert
    }

    private static func notAFeed(_ error: FeedParseError, status: Int?) -> FeedEvent {
        .failed(kind: .notAFeed, message: error.description, status: status, retryAfter: nil)
    }

    /// A damaged or foreign file is set aside; a newer one is left alone; any other storage
    /// failure is the feed's.
    private static func event(for error: StorageError, status: Int?) -> FeedEvent {
        if error.setsAside { return .databaseSetAside(message: error.message) }
        return .failed(kind: error.failureKind, message: error.description, status: status, retryAfter: nil)
    }
}
