import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: `URLSession` for http(s), the file system for `file:` URLs (a
/// publication on a mounted volume, or in tests). No cache: `manifest.json` and the pointers
/// change in place and must be read fresh (or revalidated with the ETag the client kept); the
/// content-addressed files never change, so the server's caches suffice.
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
        let response = try await fetch(TransportRequest(url: url))
        return (response.status, response.body)
    }

    public func fetch(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.isFileURL { return try Self.read(request) }
        var urlRequest = URLRequest(url: request.url)
        if let etag = request.ifNoneMatch { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let (body, response) = try await session.data(for: urlRequest)
        let http = response as? HTTPURLResponse
        return TransportResponse(status: http?.statusCode ?? 0, body: body, etag: http?.value(forHTTPHeaderField: "ETag"))
    }

    /// A file on a mounted volume, with an ETag of its size, modification time and inode (as
    /// static web servers make them): a file replaced by rename gets another.
    private static func read(_ request: TransportRequest) throws -> TransportResponse {
        let path = request.url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return TransportResponse(status: 404, body: Data()) }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        let etag = "\"\(String(size, radix: 16))-\(String(Int64(modified * 1_000_000), radix: 16))-\(String(inode, radix: 16))\""
        if request.ifNoneMatch == etag { return TransportResponse(status: 304, body: Data(), etag: etag) }
        return TransportResponse(status: 200, body: try Data(contentsOf: request.url), etag: etag)
    }
}
