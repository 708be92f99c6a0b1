import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on 127.0.0.1 at a port the kernel picks: what every test server
/// here starts from.
enum LoopbackListener {
    /// The listening descriptor and its port.
    static func open() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestHTTPServer.ServerError.socket(errno) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            close(descriptor)
            throw TestHTTPServer.ServerError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Accepts connections on `listener` while `running` says so, serving each on a thread of
    /// its own; returns when the listener is closed.
    static func acceptLoop(_ listener: Int32, running: () -> Bool, serve: @escaping @Sendable (Int32) -> Void) {
        while running() {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            Thread { serve(connection) }.start()
        }
    }

    /// Closes `connection` after `serve` returns, which gives up on a client idle for 10 s.
    static func serving(_ connection: Int32, _ serve: () -> Void) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        serve()
    }

    /// A request's head (up to its blank line, at most 64 KiB); nil when the client hung up first.
    static func readHead(_ connection: Int32) -> [UInt8]? {
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while head.firstRange(of: [13, 10, 13, 10]) == nil, head.count < 64 * 1024 {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            head += chunk[0..<count]
        }
        return head
    }

    /// Sends every byte; false once the client is gone.
    static func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
