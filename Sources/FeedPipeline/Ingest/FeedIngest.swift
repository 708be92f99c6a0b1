import FeedBasics
import FeedFetching
import FeedModel
import FeedNormalization
import FeedParsing
import FeedStorage

/// One feed's body on its way in, whoever brings it (a fetch while it downloads, a body held
/// until the fetch ended, a file): bytes → parser → each entry normalised → the destination
/// (the feed's database in its one transaction for `rss-update`, a list for `rss-inspect`).
/// Nothing holds the feed whole, and ``conclude(_:)``, the one call that ends an ingest, reads
/// what is left, keeps the entries or throws them away, and says how it went.
///
/// Failures that happen while the body arrives (its database refuses an entry, the document
/// stops being a feed) cannot be thrown through libcurl's callbacks: ``receive(_:)`` refuses
/// more bytes, which stops the transfer, and ``conclude(_:)`` tells that failure first.
final class FeedIngest<Destination: EntryDestination>: BodyConsumer {
    /// What an ingest came to.
    enum Outcome {
        /// Read to its end and kept: what the feed says of itself (normalised, without its
        /// entries), and what the destination kept.
        case read(ReadFeed, Destination.Kept)
        /// Nothing kept, and why; `status` is the HTTP status the body came with.
        case failed(IngestFailure, status: Int?)
        /// Nothing kept, and nothing to say: the body was not to be kept, or its delivery
        /// stopped for a reason of its own (the fetch's failure tells it).
        case none
    }

    private let destination: Destination
    private let now: Int64
    private let permits: ParsePermits?
    private let base: String?
    private var source: BodySource?
    private var parser: FeedStreamParser?
    private var normalizer: EntryNormalizer
    /// Why the destination refused an entry; the delivery stops there.
    private var destinationFailure: StorageError?

    /// - Parameters:
    ///   - permits: a body held until now is read with one of them (``conclude(_:)``).
    ///   - base: what relative links resolve against, over the URL the body came from
    ///     (`rss-inspect --base`).
    init(into destination: Destination, now: Int64, permits: ParsePermits? = nil, resolvingAgainst base: String? = nil) {
        self.destination = destination
        self.now = now
        self.permits = permits
        self.base = base
        normalizer = EntryNormalizer(feedURL: nil, now: now)
    }

    func start(_ source: BodySource) {
        self.source = source
        normalizer = EntryNormalizer(feedURL: base ?? source.url, now: now)
        parser = FeedStreamParser(charset: source.charset) { [unowned self] entry, feed in
            store(entry, of: feed)
        }
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let parser, destinationFailure == nil else { return false }
        parser.append(bytes)
        return destinationFailure == nil && !parser.isStopped
    }

    /// Ends the ingest as its body ended: reads a body held until now (inflating it, with one
    /// of the run's ``ParsePermits``: the commit, whose syncs are waits rather than work, needs
    /// none), reads the document to its end and keeps the entries, or throws them away.
    func conclude(_ end: BodyEnd) -> Outcome {
        switch end {
        case .discarded:
            destination.cancel()
            return .none
        case .cutShort:
            destination.cancel()
            return failureThatStoppedTheDelivery().map { .failed($0, status: source?.status) } ?? .none
        case .complete(let held):
            let read = held.map { held in withPermit { readToEnd(after: held) } } ?? readToEnd()
            do throws(IngestFailure) {
                let parsed = try read.get()
                if let destinationFailure { throw .storage(destinationFailure) }
                let kept = try rethrowing(try destination.commit(), as: IngestFailure.storage)
                let header = FeedNormalizer.header(parsed, feedURL: base ?? source?.url)
                return .read(ReadFeed(normalized: header, version: parsed.version, encoding: parsed.encoding), kept)
            } catch {
                destination.cancel()
                return .failed(error, status: source?.status)
            }
        }
    }

    /// A held body handed on, then the document read to its end.
    private func readToEnd(after held: HeldBody) -> Result<ParsedFeed, IngestFailure> {
        do throws(FetchError) {
            try held.handOn(to: self)
        } catch {
            // Too large once inflated, or damaged: nothing of it is kept.
            return .failure(.body(error))
        }
        return readToEnd()
    }

    /// The document read to its end: the feed, or why it is none (`.empty` when no byte came).
    private func readToEnd() -> Result<ParsedFeed, IngestFailure> {
        guard let parser else { return .failure(.notAFeed(.empty)) }
        do throws(FeedParseError) {
            return .success(try parser.finish())
        } catch {
            return .failure(.notAFeed(error))
        }
    }

    /// After a delivery that stopped early: why, when this ingest is the reason it stopped.
    private func failureThatStoppedTheDelivery() -> IngestFailure? {
        if let destinationFailure { return .storage(destinationFailure) }
        guard let parser, parser.isStopped else { return nil }
        do throws(FeedParseError) {
            _ = try parser.finish()
            return nil
        } catch {
            return .notAFeed(error)
        }
    }

    private func withPermit<T>(_ work: () -> T) -> T {
        guard let permits else { return work() }
        return permits.withPermit(work)
    }

    private func store(_ parsedEntry: consuming ParsedEntry, of parsedFeed: ParsedFeed) {
        guard destinationFailure == nil else { return }
        // Handed on: the parsed text is let go as soon as it is sanitised, before the write.
        guard let entry = normalizer.normalize(consume parsedEntry, in: parsedFeed) else { return }
        do throws(StorageError) {
            try destination.add(entry)
        } catch {
            destinationFailure = error
        }
    }
}

/// How a body's delivery ended, as its ingest needs to know to conclude.
enum BodyEnd {
    /// Every byte was delivered, or is in `held` (a body that came back whole with its
    /// response, or was read whole), to be read now.
    case complete(held: HeldBody?)
    /// The delivery failed before the end (the fetch failed): the ingest may be why.
    case cutShort
    /// The body is not to be kept: unchanged, gone, or the run was told to stop.
    case discarded
}

/// Why an ingest kept nothing.
enum IngestFailure: Error {
    /// A body held compressed could not be inflated, or was too large once inflated.
    case body(FetchError)
    case notAFeed(FeedParseError)
    /// The destination (the feed's database) refused the entries.
    case storage(StorageError)
}

/// A feed document read: the entries as they would be stored (empty when they went to a
/// destination one by one), and what the document said about itself.
public struct ReadFeed: Sendable {
    public var normalized: NormalizedFeed
    /// The format's own version (`2.0`, `1.0` …), when it gives one.
    public var version: String?
    /// The character encoding the bytes were read in.
    public var encoding: String
}
