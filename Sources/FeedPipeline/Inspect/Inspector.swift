import FeedFetching
import FeedParsing

/// `rss-inspect` without the command line: the document read as `rss-update` reads a feed's
/// body (the same ``FeedIngest``: parsed and normalised as it arrives), its entries kept in a
/// list instead of a database, then rendered.
public enum Inspector {
    public enum Failure: Error, CustomStringConvertible {
        case source(SourceError)
        case parse(FeedParseError)

        public var description: String {
            switch self {
            case .source(let error): return error.description
            case .parse(let error): return error.description
            }
        }
    }

    /// What to print.
    public enum Style: Sendable {
        /// The documented JSON keys.
        case json
        /// The JSON plus diagnostics, encoding, hints, id sources and enclosures.
        case details
        /// One line for a person scanning many feeds.
        case summary
    }

    /// - Parameter baseOverride: `--base`, which wins over the URL a document came from. A
    ///   file has no base of its own: its relative links resolve against the feed's own link.
    ///   The time of reading is `configuration`'s clock, as for `rss-update` (`--now`).
    public static func inspect(
        _ source: FeedSource, baseOverride: String?, style: Style, configuration: FetchConfiguration
    ) throws(Failure) -> String {
        let feed = try read(source, baseOverride: baseOverride, configuration: configuration)
        switch style {
        case .json: return InspectReport.json(feed, details: false).rendered()
        case .details: return InspectReport.json(feed, details: true).rendered()
        case .summary: return InspectReport.summaryLine(feed) + "\n"
        }
    }

    /// The source delivered into an ingest, and concluded: a failure of the ingest's first (a
    /// document that stopped being a feed stops its transfer), else the source's.
    static func read(_ source: FeedSource, baseOverride: String?, configuration: FetchConfiguration) throws(Failure) -> ReadFeed {
        let ingest = FeedIngest(into: EntryList(), now: configuration.now(), resolvingAgainst: baseOverride)
        let delivered = source.deliver(to: ingest, configuration: configuration)
        let end: BodyEnd
        switch delivered {
        case .success(let held): end = .complete(held: held)
        case .failure(.fetchFailed): end = .cutShort
        case .failure: end = .discarded
        }
        switch (ingest.conclude(end), delivered) {
        case (.read(var feed, let entries), _):
            feed.normalized.entries = entries
            return feed
        case (.failed(.notAFeed(let error), _), _):
            throw .parse(error)
        case (.failed(.body(let error), _), _):
            throw .source(.fetchFailed(error))
        case (.none, .failure(let error)):
            throw .source(error)
        case (.failed(.storage, _), _), (.none, .success):
            // Neither is expected (a list refuses no entry; a whole body is read or refused);
            // said as a document that gave nothing to read rather than a stop.
            throw .parse(.empty)
        }
    }
}
