import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real TCP relay on 127.0.0.1 in front of an S3 server (``S3TestServer``): it passes each
/// connection's bytes through unchanged (so signatures still hold: the signed `Host` is the
/// relay's, which the server does not check against its own port) and writes down every
/// request: method, path, `x-amz-checksum-sha256` and the status the server answered. Told to,
/// it answers the next requests itself with an error status (503 by default) instead: a server
/// that fails and then recovers, for the client's retries. Not a mock of the client: the
/// client under test speaks real HTTP to a real server through it.
///
/// One request per connection is what it reads (the client under test opens one per request).
public final class S3RequestRelay: @unchecked Sendable {
    public struct Exchange: Sendable, Equatable {
        public let method: String
        /// The request target, query included.
        public let path: String
        public let checksum: String?
        /// The server's status, the relay's own failure status, or 0 when none came back.
        public let status: Int
        /// True when the relay answered instead of the server.
        public let refusedByRelay: Bool
        /// The order in which the requests arrived (their answers may end in another).
        let sequence: Int
    }

    public let endpoint: String
    private let upstreamPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var log: [Exchange] = []
    private var failures: [Int] = []
    private var running = true
    private var pause: Double = 0
    private var inFlight = 0
    private var arrivals = 0

    /// Relays to `upstream` (`http://127.0.0.1:PORT`).
    public init(upstream: String) throws {
        guard let port = URL(string: upstream)?.port else { throw TestHTTPServer.ServerError.socket(EINVAL) }
        upstreamPort = port
        let (descriptor, listening) = try LoopbackListener.open()
        listener = descriptor
        endpoint = "http://127.0.0.1:\(listening)"
        let relay = self
        Thread { LoopbackListener.acceptLoop(descriptor, running: { relay.isRunning }, serve: { relay.serve($0) }) }.start()
    }

    deinit { stop() }

    public func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        if wasRunning {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }

    /// The relay answers the next `count` requests with `status` itself.
    public func failNext(_ count: Int, status: Int = 503) {
        lock.lock()
        failures += Array(repeating: status, count: count)
        lock.unlock()
    }

    /// Holds every request `seconds` before passing it on: a slow link, so that a publication
    /// lasts long enough for a test to meet it midway.
    public func delayEachRequest(by seconds: Double) { lock.lock(); pause = seconds; lock.unlock() }

    /// Every request so far, in the order they arrived; waits (at most 5 s) for the
    /// connections still open to end, so a request the client has had its answer to is there.
    public var exchanges: [Exchange] {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            lock.lock()
            let busy = inFlight
            lock.unlock()
            if busy == 0 { break }
            usleep(5_000)
        }
        lock.lock()
        defer { lock.unlock() }
        return log.sorted { $0.sequence < $1.sequence }
    }

    /// Forgets the requests so far and the refusals still planned.
    public func clear() { lock.lock(); log = []; failures = []; lock.unlock() }

    private func record(_ exchange: Exchange) { lock.lock(); log.append(exchange); lock.unlock() }

    private func nextFailure() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return failures.isEmpty ? nil : failures.removeFirst()
    }

    private func serve(_ client: Int32) {
        lock.lock(); inFlight += 1; lock.unlock()
        defer {
            close(client)
            lock.lock(); inFlight -= 1; lock.unlock()
        }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !head.contains(subsequence: [13, 10, 13, 10]) {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            head += buffer[0..<count]
        }
        let text = String(decoding: head.prefix(16_384), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        let method = requestLine.first.map(String.init) ?? ""
        let path = requestLine.count > 1 ? String(requestLine[1]) : ""
        let checksum = lines.first { $0.lowercased().hasPrefix("x-amz-checksum-sha256:") }
            .map { $0.dropFirst("x-amz-checksum-sha256:".count).trimmingCharacters(in: .whitespaces) }
        let sequence: Int = { lock.lock(); defer { lock.unlock() }; arrivals += 1; return arrivals }()
        if let status = nextFailure() {
            let body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code><Message>relay says \(status)</Message></Error>"
            let answer = "HTTP/1.1 \(status) Relay Refusal\r\nContent-Type: application/xml\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            _ = answer.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            record(Exchange(method: method, path: path, checksum: checksum, status: status, refusedByRelay: true, sequence: sequence))
            return
        }
        let wait: Double = { lock.lock(); defer { lock.unlock() }; return pause }()
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(upstream) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(upstreamPort).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, Self.sendAll(upstream, head) else {
            record(Exchange(method: method, path: path, checksum: checksum, status: 0, refusedByRelay: false, sequence: sequence))
            return
        }
        // The rest of the request (a body) flows on its own thread; the answer on this one.
        let done = DispatchSemaphore(value: 0)
        Thread {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(client, &chunk, chunk.count, 0)
                if count <= 0 || !Self.sendAll(upstream, Array(chunk[0..<count])) { break }
            }
            shutdown(upstream, Int32(SHUT_WR))
            done.signal()
        }.start()
        var answerStart: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(upstream, &chunk, chunk.count, 0)
            if count <= 0 { break }
            if answerStart.count < 8_192 { answerStart += chunk[0..<min(count, 8_192)] }
            if !Self.sendAll(client, Array(chunk[0..<count])) { break }
        }
        shutdown(client, Int32(SHUT_RDWR))
        done.wait()
        record(Exchange(method: method, path: path, checksum: checksum, status: Self.finalStatus(answerStart), refusedByRelay: false, sequence: sequence))
    }

    /// The first status of the answer that is not 1xx (`100 Continue` comes before it).
    private static func finalStatus(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.components(separatedBy: "\r\n") where line.hasPrefix("HTTP/1.") {
            let parts = line.split(separator: " ")
            if parts.count > 1, let status = Int(parts[1]), status >= 200 { return status }
        }
        return 0
    }

    private static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }
}

private extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        for start in 0...(count - subsequence.count) where self[start..<start + subsequence.count].elementsEqual(subsequence) { return true }
        return false
    }
}
