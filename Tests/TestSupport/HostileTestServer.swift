import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A publication server on 127.0.0.1 that serves a directory honestly, except for the paths a
/// test tells it to misbehave on: bodies that never end, gzip bombs, a byte at a time, headers
/// and then silence, redirect loops, lies about the length. What a client written from the
/// contract must survive (issue 52); ``TestHTTPServer`` and ``StaticDirectoryServer`` are too
/// well behaved to stream like this.
///
/// `@unchecked Sendable`: `misbehaviour` and `running` are read and written only under `lock`.
public final class HostileTestServer: @unchecked Sendable {
    /// What is sent for one path instead of the file.
    public enum Misbehaviour: Sendable {
        /// These header lines (after the status line) and this body, then close.
        case reply(status: Int, headers: [String], body: [UInt8])
        /// The file (or `body`) one byte every `interval` seconds, with its true Content-Length.
        case drip(interval: Double, body: [UInt8]? = nil)
        /// Headers promising `length` bytes, then nothing, for as long as the client waits.
        case stall(length: Int)
        /// A 200 without a length whose body repeats `chunk` until the client hangs up.
        case endless(chunk: [UInt8], headers: [String] = [])
        /// The file with `extra` more bytes after it, the Content-Length saying so.
        case appended(extra: Int)
        /// A 302 to `location` (a loop when it points back).
        case redirect(location: String)
    }

    public let port: Int
    public let directory: String
    private let listener: Int32
    private let state: State

    public init(directory: String) throws {
        self.directory = directory
        (listener, port) = try LoopbackListener.open()
        let state = State(directory: directory)
        self.state = state
        let listener = self.listener
        Thread { LoopbackListener.acceptLoop(listener, running: { state.isRunning }) { connection in state.serve(connection) } }.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>/`.
    public var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// From now on, a path (`/manifest.json`) gets what `rule` gives it; nil serves the file.
    public func misbehave(_ rule: @escaping @Sendable (_ path: String) -> Misbehaviour?) {
        state.lock.withLock { state.rule = rule }
    }

    /// Every path served honestly again.
    public func behave() { state.lock.withLock { state.rule = { _ in nil } } }

    public func stop() {
        guard state.lock.withLock({ () -> Bool in defer { state.running = false }; return state.running }) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// The paths asked for, in order.
    public var requests: [String] { state.lock.withLock { state.requests } }

    private final class State: @unchecked Sendable {
        let directory: String
        let lock = NSLock()
        var running = true
        var rule: @Sendable (String) -> Misbehaviour? = { _ in nil }
        var requests: [String] = []

        init(directory: String) { self.directory = directory }

        var isRunning: Bool { lock.withLock { running } }

        func serve(_ connection: Int32) {
            LoopbackListener.serving(connection) { answer(connection) }
        }

        private func answer(_ connection: Int32) {
            // One request per connection: every answer closes it.
            guard let (path, ifNoneMatch) = readRequest(connection) else { return }
            let misbehaviour = lock.withLock { () -> Misbehaviour? in
                requests.append(path)
                return rule(path.split(separator: "?").first.map(String.init) ?? path)
            }
            let file = fileBytes(path)
            switch misbehaviour {
            case nil:
                guard let file else { return reply(connection, status: 404, headers: [], body: []) }
                let etag = StaticDirectoryServer.etag(of: file)
                if ifNoneMatch == etag { return reply(connection, status: 304, headers: ["ETag: \(etag)", "Content-Length: 0"], body: []) }
                reply(connection, status: 200, headers: ["ETag: \(etag)"], body: file)
            case .reply(let status, let headers, let body):
                reply(connection, status: status, headers: headers, body: body)
            case .drip(let interval, let body):
                let bytes = body ?? file ?? []
                guard send(connection, head(200, ["Content-Length: \(bytes.count)"])) else { return }
                for byte in bytes {
                    guard isRunning, send(connection, [byte]) else { return }
                    Thread.sleep(forTimeInterval: interval)
                }
            case .stall(let length):
                guard send(connection, head(200, ["Content-Length: \(length)"])) else { return }
                waitForHangUp(connection)
            case .endless(let chunk, let headers):
                guard send(connection, head(200, headers)) else { return }
                while isRunning, send(connection, chunk) {}
            case .appended(let extra):
                let bytes = file ?? []
                guard send(connection, head(200, ["Content-Length: \(bytes.count + extra)"]) + bytes) else { return }
                let chunk = [UInt8](repeating: 0x41, count: 64 * 1024)
                var left = extra
                while left > 0, isRunning, send(connection, Array(chunk.prefix(left))) { left -= min(left, chunk.count) }
            case .redirect(let location):
                reply(connection, status: 302, headers: ["Location: \(location)"], body: [])
            }
        }

        private func fileBytes(_ path: String) -> [UInt8]? {
            let name = path.split(separator: "?").first.map(String.init) ?? path
            guard !name.contains(".."), let data = FileManager.default.contents(atPath: directory + name) else { return nil }
            return [UInt8](data)
        }

        private func head(_ status: Int, _ headers: [String]) -> [UInt8] {
            Array((["HTTP/1.1 \(status) Hostile", "Connection: close"] + headers).joined(separator: "\r\n").utf8) + [13, 10, 13, 10]
        }

        private func reply(_ connection: Int32, status: Int, headers: [String], body: [UInt8]) {
            let length = headers.contains { $0.lowercased().hasPrefix("content-length:") } ? [] : ["Content-Length: \(body.count)"]
            _ = send(connection, head(status, headers + length) + body)
            shutdown(connection, Int32(SHUT_WR))
        }

        /// The request's path and its `If-None-Match`, if any.
        private func readRequest(_ connection: Int32) -> (String, String?)? {
            guard let head = LoopbackListener.readHead(connection) else { return nil }
            let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
            let requestLine = (lines.first ?? "").split(separator: " ")
            guard requestLine.count > 1 else { return nil }
            let ifNoneMatch = lines.dropFirst().first { $0.lowercased().hasPrefix("if-none-match:") }
                .map { String($0.dropFirst("if-none-match:".count)).trimmingCharacters(in: .whitespaces) }
            return (String(requestLine[1]), ifNoneMatch)
        }

        private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool { LoopbackListener.sendAll(connection, bytes) }

        /// Returns when the client closes the connection (or the server stops).
        private func waitForHangUp(_ connection: Int32) {
            var byte: UInt8 = 0
            var poll = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &poll, socklen_t(MemoryLayout<timeval>.size))
            while isRunning {
                let count = recv(connection, &byte, 1, 0)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return }
            }
        }
    }
}
