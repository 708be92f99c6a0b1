#if os(Linux)
import CCurl
import Foundation

/// The default transport on Linux: libcurl, for http(s); the file system for `file:` URLs.
///
/// Why not `URLSession` here: swift-corelibs-foundation hands received bytes to the delegate
/// on another queue without holding the transfer back, so a gzip bomb decompressed faster than
/// the cap is checked (316 MB peak for a 256 MiB bomb against a 16 MiB cap), and `URLSession`
/// created `~/.cache/org.swift.foundation.URLCache` and
/// `~/.local/share/<name>` even with no cache and no cookie store (measured, issue 52). libcurl
/// calls back on the transfer's own thread, so a body stops at its cap, decompressed bytes
/// counted; the whole request ends at `timeout` however slowly bytes drip
/// (`CURLOPT_TIMEOUT_MS`); redirects stop at ``URLSessionTransport/maximumRedirects`` and never
/// leave http(s); a cancelled task stops its transfer within the progress callback's next call;
/// and it writes nothing anywhere. Proxies come from the usual environment variables, as for
/// `curl`.
public struct CurlTransport: ClientTransport {
    /// Seconds for one whole request.
    public let timeout: TimeInterval

    public init(timeout: TimeInterval = 60) {
        self.timeout = timeout
    }

    public func fetch(_ url: URL) async throws -> (status: Int, body: Data) {
        let response = try await fetch(TransportRequest(url: url))
        return (response.status, response.body)
    }

    public func fetch(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.isFileURL { return try LocalFileTransport.read(request) }
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ClientError.transport(url: request.url, reason: "only http, https and file URLs are read")
        }
        let transfer = Transfer(request: request, timeout: timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread {
                    continuation.resume(with: transfer.perform())
                }.start()
            }
        } onCancel: {
            transfer.cancel()
        }
    }

    /// One request: the easy handle's callbacks write into it on the transfer's thread;
    /// `cancelled` is the one field another thread sets.
    ///
    /// `@unchecked Sendable`: everything but `cancelled` is touched by the transfer's thread
    /// alone; `cancelled` is guarded by `lock`.
    final class Transfer: @unchecked Sendable {
        let request: TransportRequest
        let timeout: TimeInterval
        private let lock = NSLock()
        private var cancelled = false
        private var body = Data()
        private var etag: String?
        private var retryAfter: Int?
        private var overCap = false

        init(request: TransportRequest, timeout: TimeInterval) {
            self.request = request
            self.timeout = timeout
        }

        func cancel() { lock.withLock { cancelled = true } }
        var isCancelled: Bool { lock.withLock { cancelled } }

        func perform() -> Result<TransportResponse, any Error> {
            let url = request.url
            if isCancelled { return .failure(ClientError.cancelled(url: url)) }
            guard let handle = HandlePool.shared.take() else {
                return .failure(ClientError.transport(url: url, reason: "libcurl cannot be started"))
            }
            defer { HandlePool.shared.give(handle) }
            let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
            defer { errorBuffer.deallocate() }
            var headers: UnsafeMutablePointer<curl_slist>?
            if let etag = request.ifNoneMatch { headers = curl_slist_append(headers, "If-None-Match: \(etag)") }
            for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { headers = curl_slist_append(headers, "\(name): \(value)") }
            defer { curl_slist_free_all(headers) }
            let code = configure(handle, headers: headers, errorBuffer: errorBuffer)
            guard code == CURLE_OK else { return .failure(ClientError.transport(url: url, reason: String(cString: curl_easy_strerror(code)))) }
            let performed = curl_easy_perform(handle)
            var status = 0
            _ = feedmill_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            if performed == CURLE_OK {
                return .success(TransportResponse(status: status, body: body, etag: etag, retryAfter: retryAfter))
            }
            errorBuffer[Int(CURL_ERROR_SIZE) - 1] = 0
            return .failure(failure(performed, detail: String(cString: errorBuffer)))
        }

        private func configure(_ handle: UnsafeMutableRawPointer, headers: UnsafeMutablePointer<curl_slist>?, errorBuffer: UnsafeMutablePointer<CChar>) -> CURLcode {
            let context = Unmanaged.passUnretained(self).toOpaque()
            let milliseconds = max(1, Int(min(timeout, 86_400) * 1000))
            var results: [CURLcode] = [
                request.url.absoluteString.withCString { feedmill_curl_setopt_string(handle, CURLOPT_URL, $0) },
                feedmill_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)),
                feedmill_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
                feedmill_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
                feedmill_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1),
                feedmill_curl_setopt_long(handle, CURLOPT_MAXREDIRS, URLSessionTransport.maximumRedirects),
                // Every coding libcurl decodes; the cap below counts decoded bytes.
                feedmill_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""),
                feedmill_curl_setopt_string(handle, CURLOPT_USERAGENT, "FeedmillClient/\(FeedmillClientVersion.current)"),
                feedmill_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
                feedmill_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 30_000)),
                feedmill_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
                feedmill_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers),
                feedmill_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context),
                feedmill_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context),
                feedmill_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context),
                feedmill_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
            ]
            if request.method == "POST" {
                let body = request.body ?? Data()
                results.append(feedmill_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
                results.append(body.withUnsafeBytes { feedmill_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)) })
            } else if request.method != "GET" {
                results.append(request.method.withCString { feedmill_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, $0) })
            }
            // A Content-Length over the cap is refused before a byte of the body.
            if let limit = request.maxBytes { results.append(feedmill_curl_setopt_long(handle, CURLOPT_MAXFILESIZE_LARGE, limit)) }
            results.append(feedmill_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let context, let data else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
            })
            results.append(feedmill_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let context, let data else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                transfer.header(UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            })
            results.append(feedmill_curl_setopt_xferinfo_callback(handle) { context, _, _, _, _ in
                guard let context else { return 1 }
                return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            })
            return results.first { $0 != CURLE_OK } ?? CURLE_OK
        }

        /// Body bytes, decoded; false (which stops the transfer) past the cap.
        private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
            if let limit = request.maxBytes, body.count + bytes.count > limit {
                overCap = true
                return false
            }
            body.append(contentsOf: bytes)
            return true
        }

        /// A header line: a status line starts a new response (a redirect's or a 100's
        /// headers are not the answer's); the answer's ETag is kept.
        private func header(_ bytes: UnsafeRawBufferPointer) {
            let line = String(decoding: bytes, as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                etag = nil
                retryAfter = nil
                body = Data()
                return
            }
            guard let colon = line.firstIndex(of: ":") else { return }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            switch line[..<colon].lowercased() {
            case "etag": etag = value.isEmpty ? nil : value
            case "retry-after": retryAfter = Int(value).map { max(0, $0) }
            default: break
            }
        }

        /// libcurl's result in the words a person reading rss-pull's output needs.
        private func failure(_ code: CURLcode, detail: String) -> ClientError {
            let url = request.url
            if isCancelled { return .cancelled(url: url) }
            if overCap || code == CURLE_FILESIZE_EXCEEDED, let limit = request.maxBytes { return .tooLarge(url: url, limit: limit) }
            if code == CURLE_OPERATION_TIMEDOUT { return .deadline(url: url, seconds: timeout) }
            let reason = CurlTransport.describe(code)
            return .transport(url: url, reason: detail.isEmpty || reason.contains(detail) ? reason : "\(reason) (\(detail))")
        }
    }

    /// libcurl's result in the words a person reading rss-pull's output needs.
    static func describe(_ code: CURLcode) -> String {
        switch code {
        case CURLE_TOO_MANY_REDIRECTS: "more than \(URLSessionTransport.maximumRedirects) redirects (a loop?)"
        case CURLE_UNSUPPORTED_PROTOCOL: "redirected to a URL that is not http or https, not followed"
        case CURLE_COULDNT_CONNECT: "cannot connect to the server (connection refused or unreachable)"
        case CURLE_COULDNT_RESOLVE_HOST: "the host name cannot be resolved"
        case CURLE_COULDNT_RESOLVE_PROXY: "the proxy's host name cannot be resolved"
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING: "the connection was closed before the answer was complete"
        case CURLE_BAD_CONTENT_ENCODING: "the answer's compressed body cannot be decoded"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE: "the TLS connection cannot be trusted or set up"
        case CURLE_WEIRD_SERVER_REPLY: "the server's answer is not valid HTTP"
        default: String(cString: curl_easy_strerror(code))
        }
    }

    /// Easy handles kept between requests, so a sync's requests to one server share its
    /// connections (a CDN's TLS handshake once, not per pointer). A handle is reset before use.
    ///
    /// `@unchecked Sendable`: `idle` is guarded by `lock`.
    final class HandlePool: @unchecked Sendable {
        static let shared = HandlePool()
        private static let started = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
        private let lock = NSLock()
        private var idle: [UnsafeMutableRawPointer] = []
        /// As many as a sync asks for at once (``SyncSession/pointerConcurrency``), and no more.
        private let kept = 8

        func take() -> UnsafeMutableRawPointer? {
            if let handle = lock.withLock({ idle.popLast() }) {
                curl_easy_reset(handle)
                return handle
            }
            guard Self.started else { return nil }
            return curl_easy_init()
        }

        func give(_ handle: UnsafeMutableRawPointer) {
            let kept = lock.withLock { () -> Bool in
                guard idle.count < self.kept else { return false }
                idle.append(handle)
                return true
            }
            if !kept { curl_easy_cleanup(handle) }
        }
    }
}
#endif
