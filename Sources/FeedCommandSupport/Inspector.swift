import FeedFetching
import FeedModel
import FeedNormalization
import FeedParsing

/// `rss-inspect` without the command line: load, parse, normalise, render.
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

    public static func inspect(
        _ source: FeedSource, baseOverride: String?, style: Style, configuration: FetchConfiguration
    ) throws(Failure) -> String {
        let document: LoadedDocument
        do {
            document = try SourceLoader.load(source, baseOverride: baseOverride, configuration: configuration)
        } catch {
            throw .source(error)
        }
        return try render(document, style: style)
    }

    public static func render(_ document: LoadedDocument, style: Style) throws(Failure) -> String {
        let parsed: ParsedFeed
        do {
            parsed = try FeedParser.parse(document.bytes, charset: document.charset)
        } catch let error as FeedParseError {
            throw .parse(error)
        } catch {
            throw .parse(.unreadable(line: 0, column: 0, reason: "\(error)"))
        }
        let normalized = FeedNormalizer.normalize(parsed, feedURL: document.baseURL)
        switch style {
        case .json: return InspectReport.json(normalized, parsed: parsed, details: false).rendered()
        case .details: return InspectReport.json(normalized, parsed: parsed, details: true).rendered()
        case .summary: return InspectReport.summaryLine(normalized, parsed: parsed) + "\n"
        }
    }
}
