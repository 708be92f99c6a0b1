import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small real HTTP/1.1 server on 127.0.0.1 for tests: a listening socket, a thread per
/// connection, and a handler that decides each response. Fetch tests talk to it over real
/// TCP, so what they prove is what libcurl does, not what a mock was told to say.
///
/// `@unchecked Sendable`: its own stored properties are immutable; shared mutable state lives
/// in `Connections`, under a lock.
public final class TestHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Header names lowercased.
        public var headers: [String: String]
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        /// Seconds to wait before answering.
        public var delay: Double
        /// Send the body this many bytes at a time with `chunkDelay` seconds between, and no
        /// Content-Length (close-delimited): a slow or unbounded server.
        public var chunkSize: Int?
        public var chunkDelay: Double

        public init(
            status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], delay: Double = 0,
            chunkSize: Int? = nil, chunkDelay: Double = 0
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.chunkSize = chunkSize
            self.chunkDelay = chunkDelay
        }

        public init(status: Int = 200, contentType: String, body: String) {
            self.init(status: status, headers: [("Content-Type", contentType)], body: Array(body.utf8))
        }
    }

    public let port: Int
    private let listener: Int32
    /// What the serving threads share; they hold this, not the server, so that a server that
    /// goes out of scope is stopped by `deinit`.
    private let connections: Connections

    public init(handler: @escaping @Sendable (Request) -> Response) throws {
        let (socketDescriptor, port) = try LoopbackListener.open()
        listener = socketDescriptor
        self.port = port
        let connections = Connections(listener: socketDescriptor, handler: handler)
        self.connections = connections
        let thread = Thread { connections.acceptLoop() }
        thread.start()
    }

    deinit {
        stop()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request received so far, in arrival order.
    public var requests: [Request] {
        connections.lock.withLock { connections.recorded }
    }

    /// The most requests ever in progress at once for each `Host` (name without port).
    public var peakInFlightByHost: [String: Int] {
        connections.lock.withLock { connections.peakByHost }
    }

    /// The most requests ever in progress at once, all hosts together.
    public var peakInFlight: Int {
        connections.lock.withLock { connections.peakTotal }
    }

    /// TCP connections accepted, by the `Host` of their first request.
    public var connectionsByHost: [String: Int] {
        connections.lock.withLock { connections.acceptedByHost }
    }

    public func stop() {
        let wasRunning = connections.lock.withLock { () -> Bool in
            defer { connections.running = false }
            return connections.running
        }
        guard wasRunning else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    public enum ServerError: Error {
        case socket(Int32)
    }
}

/// The accept loop and per-connection serving. `@unchecked Sendable`: `recorded` and
/// `running` are only read or written under `lock`; everything else is immutable.
private final class Connections: @unchecked Sendable {
    let listener: Int32
    let handler: @Sendable (TestHTTPServer.Request) -> TestHTTPServer.Response
    let lock = NSLock()
    var recorded: [TestHTTPServer.Request] = []
    var running = true
    var inFlightByHost: [String: Int] = [:]
    var peakByHost: [String: Int] = [:]
    var inFlight = 0
    var peakTotal = 0
    var acceptedByHost: [String: Int] = [:]

    init(listener: Int32, handler: @escaping @Sendable (TestHTTPServer.Request) -> TestHTTPServer.Response) {
        self.listener = listener
        self.handler = handler
    }

    func acceptLoop() {
        LoopbackListener.acceptLoop(listener, running: { lock.withLock { running } }) { connection in
            LoopbackListener.serving(connection) { self.serve(connection) }
        }
    }

    /// Serves requests on one connection until the client closes it, a response must be
    /// close-delimited, or 10 s pass idle.
    private func serve(_ connection: Int32) {
        var pending: [UInt8] = []
        var first = true
        while let request = readRequest(connection, buffer: &pending) {
            // A host name is case-insensitive: H1.LOCALHOST and h1.localhost are one host.
            let host = request.headers["host"].map { String($0.split(separator: ":").first ?? "").lowercased() } ?? ""
            lock.withLock {
                recorded.append(request)
                if first { acceptedByHost[host, default: 0] += 1 }
                inFlightByHost[host, default: 0] += 1
                peakByHost[host] = max(peakByHost[host, default: 0], inFlightByHost[host, default: 0])
                inFlight += 1
                peakTotal = max(peakTotal, inFlight)
            }
            first = false
            // Counted as done just before the answer goes out: once the client has it, it may
            // start the next request to this host, which must not see this one still counted.
            let keepOpen = respond(to: request, on: connection) {
                lock.withLock {
                    inFlightByHost[host, default: 1] -= 1
                    inFlight -= 1
                }
            }
            guard keepOpen else { return }
        }
    }

    /// Writes one response; whether the connection may carry another request.
    private func respond(to request: TestHTTPServer.Request, on connection: Int32, answering: () -> Void) -> Bool {
        let response = handler(request)
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        answering()
        let closeDelimited = response.chunkSize != nil
        let keepOpen = !closeDelimited && request.headers["connection"]?.lowercased() != "close"
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        head += keepOpen ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if !closeDelimited { head += "Content-Length: \(response.body.count)\r\n" }
        head += "\r\n"
        guard request.method != "HEAD" else { return send(connection, Array(head.utf8)) && keepOpen }
        guard let chunkSize = response.chunkSize else {
            // One write: a body written after its head waits, on a kept-alive connection, for
            // the client's delayed ACK of the head (Nagle's algorithm), ~40 ms per request.
            return send(connection, Array(head.utf8) + response.body) && keepOpen
        }
        guard send(connection, Array(head.utf8)) else { return false }
        var offset = 0
        while offset < response.body.count {
            let end = min(offset + chunkSize, response.body.count)
            guard send(connection, Array(response.body[offset..<end])) else { return false }
            offset = end
            if response.chunkDelay > 0 { Thread.sleep(forTimeInterval: response.chunkDelay) }
        }
        return false
    }

    /// The next request on the connection (headers only; request bodies are not used here).
    private func readRequest(_ connection: Int32, buffer: inout [UInt8]) -> TestHTTPServer.Request? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.firstRange(of: [13, 10, 13, 10]) == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            if buffer.count > 64 * 1024 { return nil }
        }
        guard let end = buffer.firstRange(of: [13, 10, 13, 10]) else { return nil }
        let text = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<end.upperBound)
        var lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return TestHTTPServer.Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 304: return "Not Modified"
        case 404: return "Not Found"
        case 410: return "Gone"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
