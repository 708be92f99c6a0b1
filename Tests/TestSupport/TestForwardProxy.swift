import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real forward HTTP proxy on 127.0.0.1 (plain HTTP, absolute-form requests, as libcurl
/// sends them to an `http://` proxy): it connects to the origin itself, forwards the request
/// in origin form, and relays the answer. An origin it cannot reach is a 502, as a proxy says.
public final class TestForwardProxy: @unchecked Sendable {
    // `@unchecked Sendable`: `server` is set once in init; the rest is the server's.
    private var server: TestHTTPServer!

    public init() throws {
        server = try TestHTTPServer { request in
            Self.forward(request)
        }
    }

    public var url: String { server.baseURL }

    /// The absolute URLs asked for, in arrival order.
    public var requestedURLs: [String] { server.requests.map(\.path) }

    public func stop() { server.stop() }

    private static func forward(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response {
        guard request.path.hasPrefix("http://"), let target = Target(request.path) else {
            return .init(status: 400, contentType: "text/plain", body: "absolute http:// URL expected")
        }
        guard let answer = target.get(headers: request.headers) else {
            return .init(status: 502, contentType: "text/plain", body: "cannot reach \(target.host)")
        }
        return answer
    }

    /// Where an absolute-form request goes, and the request line to send there.
    private struct Target {
        var host: String
        var port: UInt16
        var pathAndQuery: String

        init?(_ url: String) {
            let rest = url.dropFirst("http://".count)
            let authority = rest.prefix { $0 != "/" }
            pathAndQuery = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
            let parts = authority.split(separator: ":", maxSplits: 1)
            guard let name = parts.first else { return nil }
            host = String(name)
            port = parts.count == 2 ? UInt16(parts[1]) ?? 0 : 80
        }

        /// One request over a new connection, `Connection: close`, read to the end.
        func get(headers: [String: String]) -> TestHTTPServer.Response? {
            var hints = addrinfo()
            hints.ai_family = AF_INET
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var found: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return nil }
            defer { freeaddrinfo(found) }
            let connection = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
            guard connection >= 0 else { return nil }
            defer { close(connection) }
            guard connect(connection, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return nil }
            var head = "GET \(pathAndQuery) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
            for (name, value) in headers where !["host", "connection", "proxy-connection"].contains(name) {
                head += "\(name): \(value)\r\n"
            }
            head += "\r\n"
            let bytes = Array(head.utf8)
            guard bytes.withUnsafeBytes({ Glibc.send(connection, $0.baseAddress, $0.count, 0) }) == bytes.count else { return nil }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += buffer[0..<count]
            }
            return Self.parse(received)
        }

        private static func parse(_ bytes: [UInt8]) -> TestHTTPServer.Response? {
            let separator: [UInt8] = [13, 10, 13, 10]
            guard let end = (0...max(0, bytes.count - 4)).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator }) else {
                return nil
            }
            let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
            guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
            let headers = lines.dropFirst().compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = String(line[..<colon])
                guard !["connection", "content-length", "transfer-encoding"].contains(name.lowercased()) else { return nil }
                return (name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            return TestHTTPServer.Response(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
        }
    }
}
