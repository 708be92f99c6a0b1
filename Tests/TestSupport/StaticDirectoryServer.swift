import Foundation

/// A directory served over real HTTP on 127.0.0.1, as a static web server or a CDN serves a
/// publication: `GET /name` answers the file's bytes (200) or 404. A test may change how
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
        let type = name.hasSuffix(".json") ? "application/json" : "application/octet-stream"
        return .init(headers: [("Content-Type", type)], body: bytes)
    }
}
