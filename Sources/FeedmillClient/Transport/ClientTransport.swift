import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the client gets bytes: one call per file. An app passes its own (its HTTP stack, its
/// authentication, its background session); ``URLSessionTransport`` is the default. The
/// client checks what it receives (size, SHA-256, content digest) and never trusts the
/// transport for that.
public protocol ClientTransport: Sendable {
    /// The whole body of `url` and the HTTP status (200 for a file that was read).
    func fetch(_ url: URL) async throws -> (status: Int, body: Data)
}

/// The default transport: `URLSession` for http(s), the file system for `file:` URLs (a
/// publication on a mounted volume, or in tests). No cache: `manifest.json` changes in place
/// and must be read fresh; the versioned files never change, so the server's caches suffice.
public struct URLSessionTransport: ClientTransport {
    private let session: URLSession

    public init(timeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    public func fetch(_ url: URL) async throws -> (status: Int, body: Data) {
        if url.isFileURL {
            guard FileManager.default.fileExists(atPath: url.path) else { return (404, Data()) }
            return (200, try Data(contentsOf: url))
        }
        let (body, response) = try await session.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }
}
