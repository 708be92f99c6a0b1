#if os(Linux)
import CCurl
import Foundation

/// libcurl holding an event stream: the transfer runs on its own thread, each received chunk
/// goes to the consumer as it comes (nothing accumulates but what the consumer has not read,
/// bounded by the parser's event cap), and the transfer stops at the consumer's end within the
/// progress callback's next call. No total time limit (the stream is meant to last); a
/// connection silent for ``DefaultEventStreams/idleLimit`` is dropped (`CURLOPT_LOW_SPEED_*`).
public struct CurlEventStreams: EventStreamTransport {
    public let connectTimeout: TimeInterval

    public init(connectTimeout: TimeInterval = 30) {
        self.connectTimeout = connectTimeout
    }

    public func open(_ url: URL, headers: [String: String]) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                continuation.finish(throwing: ClientError.transport(url: url, reason: "an event stream is read over http or https"))
                return
            }
            let stream = Stream(url: url, headers: headers, connectTimeout: connectTimeout, continuation: continuation)
            continuation.onTermination = { _ in stream.cancel() }
            Thread { stream.perform() }.start()
        }
    }

    /// One connection. `@unchecked Sendable`: everything but `cancelled` is touched by the
    /// transfer's thread alone; `cancelled` is guarded by `lock`.
    final class Stream: @unchecked Sendable {
        let url: URL
        let headers: [String: String]
        let connectTimeout: TimeInterval
        let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
        private let lock = NSLock()
        private var cancelled = false
        private var status = 0
        private var contentType = ""
        private var refused: ClientError?

        init(url: URL, headers: [String: String], connectTimeout: TimeInterval, continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation) {
            self.url = url
            self.headers = headers
            self.connectTimeout = connectTimeout
            self.continuation = continuation
        }

        func cancel() { lock.withLock { cancelled = true } }
        var isCancelled: Bool { lock.withLock { cancelled } }

        func perform() {
            guard let handle = curl_easy_init() else {
                continuation.finish(throwing: ClientError.transport(url: url, reason: "libcurl cannot be started"))
                return
            }
            defer { curl_easy_cleanup(handle) }
            var list: UnsafeMutablePointer<curl_slist>?
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { list = curl_slist_append(list, "\(name): \(value)") }
            defer { curl_slist_free_all(list) }
            let context = Unmanaged.passUnretained(self).toOpaque()
            let options: [CURLcode] = [
                url.absoluteString.withCString { feedmill_curl_setopt_string(handle, CURLOPT_URL, $0) },
                feedmill_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
                feedmill_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
                feedmill_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1),
                feedmill_curl_setopt_long(handle, CURLOPT_MAXREDIRS, URLSessionTransport.maximumRedirects),
                feedmill_curl_setopt_string(handle, CURLOPT_USERAGENT, "FeedmillClient/\(FeedmillClientVersion.current)"),
                feedmill_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(min(connectTimeout, 300) * 1000))),
                feedmill_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1),
                feedmill_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, Int(DefaultEventStreams.idleLimit)),
                feedmill_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
                feedmill_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list),
                feedmill_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context),
                feedmill_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context),
                feedmill_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context),
                feedmill_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
                feedmill_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                    guard let context, let data else { return 0 }
                    let stream = Unmanaged<Stream>.fromOpaque(context).takeUnretainedValue()
                    return stream.receive(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
                },
                feedmill_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                    guard let context, let data else { return 0 }
                    Unmanaged<Stream>.fromOpaque(context).takeUnretainedValue().header(UnsafeRawBufferPointer(start: data, count: size * count))
                    return size * count
                },
                feedmill_curl_setopt_xferinfo_callback(handle) { context, _, _, _, _ in
                    guard let context else { return 1 }
                    return Unmanaged<Stream>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
                },
            ]
            if let failed = options.first(where: { $0 != CURLE_OK }) {
                continuation.finish(throwing: ClientError.transport(url: url, reason: String(cString: curl_easy_strerror(failed))))
                return
            }
            let code = curl_easy_perform(handle)
            if let refused {
                continuation.finish(throwing: refused)
            } else if code == CURLE_OK || isCancelled {
                if status != 200 && !isCancelled {
                    continuation.finish(throwing: ClientError.httpStatus(url: url, status: status))
                } else {
                    continuation.finish()
                }
            } else if code == CURLE_OPERATION_TIMEDOUT {
                continuation.finish(throwing: ClientError.transport(url: url, reason: "nothing received for \(Int(DefaultEventStreams.idleLimit)) s (not even a heartbeat): the connection is taken as dead"))
            } else {
                continuation.finish(throwing: ClientError.transport(url: url, reason: CurlTransport.describe(code)))
            }
        }

        /// A body chunk; the answer's status and type are checked before the first.
        private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard !isCancelled else { return false }
            guard status == 200 else {
                refused = .httpStatus(url: url, status: status)
                return false
            }
            guard contentType.hasPrefix("text/event-stream") else {
                refused = .transport(url: url, reason: "the answer is \(contentType.isEmpty ? "of no type" : contentType), not text/event-stream")
                return false
            }
            continuation.yield([UInt8](bytes))
            return true
        }

        private func header(_ bytes: UnsafeRawBufferPointer) {
            let line = String(decoding: bytes, as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                let parts = line.split(separator: " ")
                status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                contentType = ""
                return
            }
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "content-type" else { return }
            contentType = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        }
    }
}
#endif
