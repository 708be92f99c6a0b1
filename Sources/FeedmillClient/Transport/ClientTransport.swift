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

    /// A conditional GET: with `ifNoneMatch` (an ETag the client kept), a server whose file
    /// still has that ETag answers 304 and no body, which is what keeps a sync that finds
    /// nothing changed at a few hundred bytes per followed feed. The default implementation
    /// makes a plain ``fetch(_:)`` (never a 304, no ETag): a transport written before
    /// publication format 2 keeps working, it only downloads the pointers every time.
    func fetch(_ request: TransportRequest) async throws -> TransportResponse
}

/// One GET the client makes.
public struct TransportRequest: Sendable, Equatable {
    public var url: URL
    /// The `If-None-Match` header to send (an ETag as the server gave it, quotes included).
    public var ifNoneMatch: String?
    /// The most bytes of body the client accepts (after decompression): a transport should
    /// stop reading past it and throw ``ClientError/tooLarge(url:limit:)``, so a hostile or
    /// broken server cannot fill the device's memory. The client checks it again on what a
    /// transport returns. Nil: no cap.
    public var maxBytes: Int?
    /// `GET` for every file; `POST` (with ``body``) for reading-state changes (``ReadingState``).
    public var method: String
    /// More request headers (`Authorization`, `Content-Type`). A transport that cannot send
    /// them (one written before reading state) only serves the publication's files.
    public var headers: [String: String]
    public var body: Data?

    public init(url: URL, ifNoneMatch: String? = nil, maxBytes: Int? = nil, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.maxBytes = maxBytes
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// What came back: the status (200, 304, 404, …), the body (empty for a 304) and the
/// `ETag` header when the server sent one.
public struct TransportResponse: Sendable, Equatable {
    public var status: Int
    public var body: Data
    public var etag: String?
    /// `Retry-After` in seconds, when the server sent one (a 429 or 503 of the reading-state
    /// endpoint): how long to wait before asking again.
    public var retryAfter: Int?

    public init(status: Int, body: Data, etag: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.body = body
        self.etag = etag
        self.retryAfter = retryAfter
    }
}

extension ClientTransport {
    public func fetch(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.method == "GET", request.headers.isEmpty else {
            throw ClientError.transport(url: request.url, reason: "this transport sends only plain GETs (implement fetch(_: TransportRequest) for \(request.method) with headers)")
        }
        let (status, body) = try await fetch(request.url)
        return TransportResponse(status: status, body: body)
    }
}

/// The transport a client uses unless it is given one: ``CurlTransport`` on Linux (where
/// Foundation's `URLSession` cannot hold a transfer to its cap, and writes outside the app's
/// folder), ``URLSessionTransport`` on Apple platforms.
public enum DefaultTransport {
    public static func make(timeout: TimeInterval = 60) -> any ClientTransport {
        #if os(Linux)
        CurlTransport(timeout: timeout)
        #else
        URLSessionTransport(timeout: timeout)
        #endif
    }
}
