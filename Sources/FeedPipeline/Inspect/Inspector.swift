import FeedFetching
import FeedParsing

/// `rss-inspect` without the command line: load, then read as `rss-update` reads (parse,
/// normalise), then render.
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
        let document: LoadedDocument
        do {
            document = try source.load(configuration: configuration)
        } catch {
            throw .source(error)
        }
        let fetched: Bool
        if case .url = source { fetched = true } else { fetched = false }
        let baseURL = baseOverride ?? (fetched ? document.origin : nil)
        return try render(document, baseURL: baseURL, style: style, now: configuration.now())
    }

    static func render(_ document: LoadedDocument, baseURL: String?, style: Style, now: Int64) throws(Failure) -> String {
        let feed: ReadFeed
        do {
            feed = try FeedReading.read(document.bytes, charset: document.charset, baseURL: baseURL, now: now)
        } catch {
            throw .parse(error)
        }
        switch style {
        case .json: return InspectReport.json(feed, details: false).rendered()
        case .details: return InspectReport.json(feed, details: true).rendered()
        case .summary: return InspectReport.summaryLine(feed) + "\n"
        }
    }
}
