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

    public static func inspect(
        _ source: FeedSource, baseOverride: String?, details: Bool, configuration: FetchConfiguration
    ) throws(Failure) -> String {
        let document: LoadedDocument
        do {
            document = try SourceLoader.load(source, baseOverride: baseOverride, configuration: configuration)
        } catch {
            throw .source(error)
        }
        return try render(document, details: details)
    }

    public static func render(_ document: LoadedDocument, details: Bool) throws(Failure) -> String {
        let parsed: ParsedFeed
        do {
            parsed = try FeedParser.parse(document.bytes, charset: document.charset)
        } catch let error as FeedParseError {
            throw .parse(error)
        } catch {
            throw .parse(.unreadable(line: 0, column: 0, reason: "\(error)"))
        }
        let normalized = FeedNormalizer.normalize(parsed, feedURL: document.baseURL)
        return InspectReport.json(normalized, parsed: parsed, details: details).rendered()
    }
}
