import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the client holds a Server-Sent Events connection open: the body's bytes as they
/// arrive, until the server closes or the consumer stops. An app passes its own (its HTTP
/// stack, its authentication); ``DefaultEventStreams/make()`` is libcurl on Linux and
/// `URLSession`'s byte stream on Apple platforms.
public protocol EventStreamTransport: Sendable {
    /// Opens `url` with `headers` (`Accept`, `Last-Event-ID`, …). The stream throws
    /// ``ClientError`` when the server answers other than 200 `text/event-stream`, the
    /// connection fails, or nothing (not even a heartbeat) comes for ``idleLimit``; it ends
    /// when the server closes. Ending the consumer's iteration closes the connection.
    func open(_ url: URL, headers: [String: String]) -> AsyncThrowingStream<[UInt8], any Error>
}

public enum DefaultEventStreams {
    /// Seconds without a byte after which a connection is taken as dead: `rss-serve` sends a
    /// heartbeat every 15 s, so three missed ones.
    public static let idleLimit: TimeInterval = 45

    public static func make(connectTimeout: TimeInterval = 30) -> any EventStreamTransport {
        #if os(Linux)
        CurlEventStreams(connectTimeout: connectTimeout)
        #else
        URLSessionEventStreams(connectTimeout: connectTimeout)
        #endif
    }
}

#if !os(Linux)
/// `URLSession.bytes(for:)`: Apple platforms' stream.
public struct URLSessionEventStreams: EventStreamTransport {
    public let connectTimeout: TimeInterval

    public init(connectTimeout: TimeInterval = 30) {
        self.connectTimeout = connectTimeout
    }

    public func open(_ url: URL, headers: [String: String]) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: DefaultEventStreams.idleLimit)
                for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
                do {
                    let (bytes, response) = try await URLSession.shared.bytes(for: request)
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    guard status == 200 else { throw ClientError.httpStatus(url: url, status: status) }
                    guard response.mimeType == "text/event-stream" else {
                        throw ClientError.transport(url: url, reason: "the answer is not text/event-stream")
                    }
                    var chunk: [UInt8] = []
                    for try await byte in bytes {
                        chunk.append(byte)
                        if byte == 10 || chunk.count >= 16_384 {
                            continuation.yield(chunk)
                            chunk.removeAll(keepingCapacity: true)
                        }
                    }
                    if !chunk.isEmpty { continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
#endif
