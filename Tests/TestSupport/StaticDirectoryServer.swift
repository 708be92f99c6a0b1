import Foundation

/// A directory served over real HTTP on 127.0.0.1, as a static web server or a CDN serves a
/// publication: `GET /name` answers the file's bytes (200) with an `ETag` (its size and a hash
/// of its bytes), 304 with no body when the request's `If-None-Match` names that ETag, or 404.
/// A test may change how
/// chosen files are answered (slowly, cut short, with another status) to put a client in the
/// situations a real network puts it in.
///
/// `@unchecked Sendable`: `responder` is only read or written under `lock`; the rest is immutable.
public final class StaticDirectoryServer: @unchecked Sendable {
    /// How one file is answered instead of the plain 200: given the path (`/feed_1.v3.sqlite`)
    /// and the file's bytes (nil when there is no such file); nil keeps the plain answer.
    public typealias Responder = @Sendable (_ path: String, _ bytes: [UInt8]?) -> TestHTTPServer.Response?

    public let directory: String
    private let lock = NSLock()
    private var responder: Responder?
    private var server: TestHTTPServer?

    public init(directory: String) throws {
        self.directory = directory
        server = try TestHTTPServer { [weak self] request in
            self?.answer(request) ?? .init(status: 503)
        }
    }

    /// `http://127.0.0.1:<port>/`: the publication's base URL.
    public var baseURL: String { (server?.baseURL ?? "") + "/" }

    /// Every request received so far, in arrival order.
    public var requests: [TestHTTPServer.Request] { server?.requests ?? [] }

    /// The most requests ever in progress at once.
    public var peakInFlight: Int { server?.peakInFlight ?? 0 }

    /// Answers chosen files differently from now on (nil: plainly again).
    public func respond(with responder: Responder?) {
        lock.withLock { self.responder = responder }
    }

    public func stop() { server?.stop() }

    private func answer(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response {
        let path = String(request.path.split(separator: "?", maxSplits: 1).first ?? "")
        let name = String(path.dropFirst())
        // A plain name only: the server must not serve anything outside its directory.
        let plain = !name.isEmpty && !name.contains("/") && !name.hasPrefix(".")
        let bytes = plain ? FileManager.default.contents(atPath: directory + "/" + name).map { [UInt8]($0) } : nil
        if request.method == "GET", let custom = lock.withLock({ responder })?(path, bytes) { return custom }
        guard request.method == "GET" else { return .init(status: 405) }
        guard let bytes else { return .init(status: 404) }
        let etag = Self.etag(of: bytes)
        if let condition = request.headers["if-none-match"], Self.matches(condition, etag) {
            return .init(status: 304, headers: [("ETag", etag)])
        }
        let type = name.hasSuffix(".json") ? "application/json"
            : name.hasSuffix(".html") ? "text/html; charset=utf-8" : name.hasSuffix(".xml") ? "application/atom+xml" : "application/octet-stream"
        return .init(headers: [("Content-Type", type), ("ETag", etag)], body: bytes)
    }

    /// A strong ETag: the size and FNV-1a 64 of the bytes, quoted.
    public static func etag(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return "\"\(String(bytes.count, radix: 16))-\(String(hash, radix: 16))\""
    }

    /// `If-None-Match` as RFC 9110 reads it: `*`, or a list of ETags (weak comparison).
    private static func matches(_ condition: String, _ etag: String) -> Bool {
        let tags = condition.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return tags.contains { $0 == "*" || $0 == etag || $0 == "W/" + etag }
    }
}
