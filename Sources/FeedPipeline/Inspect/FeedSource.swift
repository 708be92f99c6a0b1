import FeedBasics
import FeedFetching
import Foundation

/// Where a document comes from on the command line: a file path or an http(s) URL. The feed
/// list of `rss-create` and the feed of `rss-inspect` are both named this way.
public enum FeedSource: Equatable, Sendable {
    case file(path: String)
    case url(String)

    public init(_ argument: String) {
        let lowered = argument.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            self = .url(argument)
        } else if lowered.hasPrefix("file://") {
            self = .file(path: String(argument.dropFirst("file://".count)))
        } else {
            self = .file(path: argument)
        }
    }
}

/// A loaded document: its bytes, the transport charset, and where it came from (the final URL
/// fetched, or the file's `file:` URL), which relative links may resolve against.
public struct LoadedDocument: Sendable {
    public var bytes: [UInt8]
    public var charset: String?
    public var origin: String
}

/// Why a source could not be loaded.
public enum SourceError: Error, CustomStringConvertible, Equatable {
    case unreadableFile(path: String, reason: String)
    case fetchFailed(FetchError)
    case gone(url: String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "cannot read \(path): \(reason)"
        case .fetchFailed(let error): return "cannot fetch \(error.description) [\(error.kind.rawValue)]"
        case .gone(let url): return "\(url): the feed is gone (HTTP 410)"
        }
    }
}

extension FeedSource {
    /// Hands the document to `consumer`: a URL's body streams into it while it downloads, past
    /// what a fetch holds; a file, and a fetched body small enough to be held, come back whole
    /// (``HeldBody``), for the caller to hand on once it is ready to read them.
    func deliver(to consumer: BodyConsumer, configuration: FetchConfiguration) -> Result<HeldBody?, SourceError> {
        switch self {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file"
                return .failure(.unreadableFile(path: path, reason: reason))
            }
            return .success(HeldBody(source: BodySource(url: nil), bytes: [UInt8](data)))
        case .url(let url):
            do throws(FetchError) {
                let outcome = try HTTPFetcher(configuration: configuration).fetch(FetchRequest(url: url), consumer: consumer)
                if case .gone = outcome { return .failure(.gone(url: url)) }
                return .success(outcome.response.heldBody)
            } catch {
                return .failure(.fetchFailed(error))
            }
        }
    }

    /// Reads the file or fetches the URL (with the run's fetch settings: network policy,
    /// size cap, recordings).
    public func load(configuration: FetchConfiguration) throws(SourceError) -> LoadedDocument {
        switch self {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file"
                throw .unreadableFile(path: path, reason: reason)
            }
            return LoadedDocument(bytes: [UInt8](data), charset: nil, origin: URL(fileURLWithPath: path).standardizedFileURL.absoluteString)
        case .url(let url):
            let outcome = try rethrowing(try HTTPFetcher(configuration: configuration).fetch(url), as: SourceError.fetchFailed)
            if case .gone = outcome { throw .gone(url: url) }
            let response = outcome.response
            return LoadedDocument(bytes: response.body, charset: response.charset, origin: response.finalURL)
        }
    }
}
