import CCurl
import FeedBasics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Fetches one feed with one libcurl easy handle: conditional requests, every content
/// encoding libcurl supports (or gzip and deflate, held compressed, when a consumer is to
/// read the body: ``BodyStream``), redirects followed hop by hop (so each hop's status is known
/// and a loop is recognised), a decompressed-size cap, timeouts and a low-speed cut-off,
/// `http`/`https` only, and the ``NetworkPolicy`` checked on every address connected to.
///
/// One fetcher is used by one thread at a time; reusing it reuses its connections.
public final class HTTPFetcher {
    public let configuration: FetchConfiguration
    private var handle: CurlEasyHandle?
    /// New connections the handle has opened (`CURLINFO_NUM_CONNECTS`, summed).
    private var connectionsOpened = 0
    /// How many times the handle was replaced (``connectionsPerHandle``).
    private(set) var handlesReplaced = 0

    /// Connections one handle opens before the fetcher replaces it with a new one.
    ///
    /// Why: libcurl 7.88 (Debian 12's) keeps a record per host in each handle's connection
    /// pool, and when the pool is full and its oldest idle connection is closed, that host's
    /// record stays behind, empty, until the handle is cleaned up: 118 bytes per host and
    /// handle. Over a run that reaches many hosts the heap grew with the number of feeds
    /// (docs/perf-notes/live-heap-over-a-run.md). A new handle lets them go; the old handle's idle connections (5 at most) go with it,
    /// against the 64 it opened, and the process's DNS cache stays (it is shared).
    static let connectionsPerHandle = 64

    public init(configuration: FetchConfiguration = .default) {
        self.configuration = configuration
        // A replay never touches the network, so it has no handle at all.
        if case .replay? = configuration.recording {
            self.handle = nil
        } else {
            self.handle = CurlEasyHandle()
        }
    }

    public func fetch(_ url: String) throws(FetchError) -> FetchOutcome {
        try fetch(FetchRequest(url: url))
    }

    /// - Parameter consumer: reads a successful body as it arrives (``BodyConsumer``), when it
    ///   outgrows what is held; a smaller one comes back held in the response, for the caller
    ///   to hand on (``FetchResponse/heldBody``). Without one, the body is collected into the
    ///   response, decoded.
    public func fetch(_ request: FetchRequest, consumer: BodyConsumer? = nil) throws(FetchError) -> FetchOutcome {
        if case .replay(let directory)? = configuration.recording {
            return try replay(request, from: RecordingStore(directory: directory), consumer: consumer)
        }
        let started = ContinuousClock.now
        do {
            if case .record(let directory)? = configuration.recording {
                return try fetchLive(request, consumer: consumer, recordingInto: directory)
            }
            return try fetchLive(request, consumer: consumer, recordingInto: nil)
        } catch {
            // A failure took time too (a timeout, a slow 500): logs and metrics show it.
            var failure = error
            failure.duration = Self.seconds(ContinuousClock.now - started)
            throw failure
        }
    }

    /// A live fetch, stored in the recording directory when there is one.
    private func fetchLive(
        _ request: FetchRequest, consumer: BodyConsumer?, recordingInto directory: String?
    ) throws(FetchError) -> FetchOutcome {
        guard let directory else { return try classify(try live(request, consumer: consumer), request: request) }
        let store = RecordingStore(directory: directory)
        let answer: LiveAnswer
        do {
            answer = try live(request, consumer: consumer, keepingWholeBody: true)
        } catch {
            try recordOrFail(request.url, directory) { try store.record(request, failure: error) }
            throw error
        }
        try recordOrFail(request.url, directory) { try store.record(request, response: answer.raw, body: answer.body.held) }
        return try classify(answer, request: request)
    }

    /// What came back from the network for one request, before classification.
    struct LiveAnswer {
        var raw: RawResponse
        var body: BodyStream
        var bytesReceived: Int
        var duration: Double
    }

    /// Follows redirects to the last hop. Throws only when there is no final answer
    /// (transport failures, redirect loops); HTTP error statuses are the classifier's.
    private func live(
        _ request: FetchRequest, consumer: BodyConsumer?, keepingWholeBody: Bool = false
    ) throws(FetchError) -> LiveAnswer {
        guard let handle = handleForNextFetch() else {
            throw FetchError(kind: .network, url: request.url, message: "libcurl could not be initialised")
        }
        let started = ContinuousClock.now
        var url = request.url
        var visited: Set<String> = [url]
        var redirects: [Redirect] = []
        var bytesReceived = 0
        // One for the whole fetch: only the final, successful hop writes a body into it.
        let body = BodyStream(limit: configuration.maxBodyBytes, consumer: consumer, keepsWhole: keepingWholeBody)
        while true {
            let elapsed = Self.seconds(ContinuousClock.now - started)
            let remaining = configuration.totalTimeout - elapsed
            guard remaining > 0 else {
                throw FetchError(kind: .timeout, url: request.url, message: "timed out after \(redirects.count) redirect(s)")
            }
            let proxy = configuration.proxies.proxy(for: url)
            if proxy != nil, let refused = Self.refusedThroughProxy(url, policy: configuration.networkPolicy) {
                throw FetchError(
                    kind: .blockedAddress, url: request.url,
                    message: "refused to fetch \(refused) through the proxy: not a public address (to fetch it, pass --allow-private-networks or set allow-private-networks = true)")
            }
            // Through a proxy, the connection is to the proxy the operator chose: the guard
            // cannot see where the proxy connects, so it checks the URL's host above instead.
            let policy = proxy == nil ? configuration.networkPolicy : .allowAll
            let sink = TransferSink(url: url, stream: body, policy: policy, stop: configuration.stop)
            let code = perform(handle, url: url, proxy: proxy, request: request, sink: sink, timeout: remaining)
            connectionsOpened += handle.infoLong(CURLINFO_NUM_CONNECTS)
            bytesReceived += handle.infoLong(CURLINFO_HEADER_SIZE) + Int(handle.infoOffset(CURLINFO_SIZE_DOWNLOAD_T))
            guard code == CURLE_OK else {
                let hop = FetchErrorMapping.Hop(url: url, proxy: proxy, libcurlText: handle.errorText)
                throw FetchErrorMapping.error(for: code, hop: hop, sink: sink, configuration: configuration)
            }
            // A file:// transfer has no status; having succeeded, it is a 200.
            let status = url.lowercased().hasPrefix("file:") ? 200 : handle.infoLong(CURLINFO_RESPONSE_CODE)
            if [301, 302, 303, 307, 308].contains(status), let location = handle.infoString(CURLINFO_REDIRECT_URL) {
                guard redirects.count < configuration.maxRedirects else {
                    throw FetchError(
                        kind: .tooManyRedirects, url: request.url,
                        message: "more than \(configuration.maxRedirects) redirects", status: status)
                }
                guard !visited.contains(location) else {
                    throw FetchError(
                        kind: .redirectLoop, url: request.url,
                        message: "redirect loop: \(url) leads back to \(location)", status: status)
                }
                guard let scheme = location.split(separator: ":").first?.lowercased(), scheme == "http" || scheme == "https" else {
                    throw FetchError(kind: .unsupportedScheme, url: request.url, message: "redirected to a non-HTTP URL: \(location)")
                }
                redirects.append(Redirect(status: status, from: url, to: location))
                visited.insert(location)
                url = location
                continue
            }
            var headers: [String: String] = [:]
            for name in RawResponse.recordedHeaders {
                if let value = sink.header(name) { headers[name] = value }
            }
            let raw = RawResponse(finalURL: url, status: status, redirects: redirects, headers: headers)
            return LiveAnswer(raw: raw, body: body, bytesReceived: bytesReceived, duration: Self.seconds(ContinuousClock.now - started))
        }
    }

    private func replay(
        _ request: FetchRequest, from store: RecordingStore, consumer: BodyConsumer?
    ) throws(FetchError) -> FetchOutcome {
        let found = try rethrowing(
            try store.lookUp(request),
            as: { (error: any Error) in FetchError(kind: .recording, url: request.url, message: "unreadable recording in \(store.directory): \(error)") })
        guard let found else {
            var sent: [String] = []
            if let etag = request.etag { sent.append("If-None-Match: \(etag)") }
            if let lastModified = request.lastModified { sent.append("If-Modified-Since: \(lastModified)") }
            throw FetchError(
                kind: .notRecorded, url: request.url,
                message: "no recording of GET \(request.url)\(sent.isEmpty ? "" : " (" + sent.joined(separator: ", ") + ")") in \(store.directory)")
        }
        if let failure = found.exchange.failure {
            throw FetchError(
                kind: failure.kind, url: request.url, message: failure.message,
                status: failure.status, retryAfter: failure.retryAfter)
        }
        guard let raw = found.exchange.response else {
            throw FetchError(kind: .recording, url: request.url, message: "recording in \(store.directory) has neither a response nor a failure")
        }
        let body = BodyStream(limit: .max, consumer: consumer)
        if (200..<300).contains(raw.status) {
            body.begin(
                BodySource(
                    url: raw.finalURL, status: raw.status, contentType: raw.header("content-type"),
                    etag: raw.header("etag"), lastModified: raw.header("last-modified")))
            _ = found.body.withUnsafeBytes { body.receive($0) }
        }
        return try classify(LiveAnswer(raw: raw, body: body, bytesReceived: found.body.count, duration: 0), request: request)
    }

    private func recordOrFail(_ url: String, _ directory: String, _ write: () throws -> Void) throws(FetchError) {
        try rethrowing(
            try write(), as: { (error: any Error) in FetchError(kind: .recording, url: url, message: "could not record into \(directory): \(error)") })
    }

    /// The same rules for a live answer and a replayed one.
    private func classify(_ answer: LiveAnswer, request: FetchRequest) throws(FetchError) -> FetchOutcome {
        let raw = answer.raw
        var response = FetchResponse(requestedURL: request.url, finalURL: raw.finalURL, status: raw.status)
        response.redirects = raw.redirects
        response.bytesReceived = answer.bytesReceived
        response.duration = answer.duration
        response.contentType = raw.header("content-type")
        response.etag = raw.header("etag")
        response.lastModified = raw.header("last-modified")
        response.cacheControl = raw.header("cache-control")
        response.expires = raw.header("expires")
        response.date = raw.header("date")
        switch response.status {
        case 304:
            // RFC 9110 §15.4.5: a 304 answers a conditional request. To one that sent no
            // validator it says nothing about the feed: taken as "not modified", a feed first
            // fetched that way would look healthy and never be fetched in full.
            guard request.etag != nil || request.lastModified != nil else {
                throw FetchError(
                    kind: .protocolViolation, url: request.url,
                    message: "the server answered 304 Not Modified to a request that was not conditional (no If-None-Match or If-Modified-Since was sent)",
                    status: 304)
            }
            // A 304 may omit validators; keep the ones we sent.
            response.etag = response.etag ?? request.etag
            response.lastModified = response.lastModified ?? request.lastModified
            return .notModified(response)
        case 410:
            return .gone(response)
        case 200..<300:
            if let cutShort = answer.body.cutShort {
                throw FetchError(kind: .network, url: request.url, message: cutShort, status: response.status)
            }
            response.bodyHash = answer.body.digest()
            if let previous = request.previousBodyHash, previous == response.bodyHash {
                return .notModified(response)
            }
            response.body = answer.body.finish()
            response.bodyStreamed = answer.body.streamed
            if !response.body.isEmpty, answer.body.coding != .identity {
                (response.bodyCoding, response.decodedBodyLimit) = (answer.body.coding, answer.body.limit)
            }
            return .fetched(response)
        default:
            let retryAfter = [429, 503].contains(response.status)
                ? RetryAfter.seconds(
                    raw.header("retry-after"), serverDate: response.date, now: configuration.now(),
                    cap: configuration.maxRetryAfter)
                : nil
            var message = "HTTP status \(response.status)"
            if let retryAfter { message += ", retry after \(retryAfter) s" }
            throw FetchError(kind: .httpStatus, url: request.url, message: message, status: response.status, retryAfter: retryAfter)
        }
    }

    /// A URL whose host is itself a non-public address (`127.0.0.1`, `[::1]`, `localhost`), when
    /// the proxy would resolve and connect to it: refused as a direct connection would be.
    /// Names are resolved by the proxy, out of Feedmill's sight (see docs/fetching.md, Proxies).
    static func refusedThroughProxy(_ url: String, policy: NetworkPolicy) -> String? {
        guard !policy.allowPrivateNetworks, let host = URLHost.of(url) else { return nil }
        if host == "localhost" || host.hasSuffix(".localhost") { return host }
        guard let address = IPAddress(host), !policy.permits(address) else { return nil }
        return host
    }

    /// The handle, replaced by a new one first once it has opened ``connectionsPerHandle``
    /// connections (kept if libcurl cannot make another).
    private func handleForNextFetch() -> CurlEasyHandle? {
        if connectionsOpened >= Self.connectionsPerHandle, handle != nil, let renewed = CurlEasyHandle() {
            handle = renewed
            connectionsOpened = 0
            handlesReplaced += 1
        }
        return handle
    }

    /// One request on the reused handle; redirects are not followed here.
    private func perform(
        _ handle: CurlEasyHandle, url: String, proxy: String?, request: FetchRequest, sink: TransferSink, timeout: Double
    ) -> CURLcode {
        handle.reset()
        handle.set(CURLOPT_URL, url)
        handle.set(CURLOPT_PROTOCOLS_STR, configuration.allowFileURLs ? "http,https,file" : "http,https")
        handle.set(CURLOPT_FOLLOWLOCATION, 0)
        if sink.stream.keepsCompressed {
            // Held compressed and inflated at parse time (BodyStream): only what BodyInflater decodes.
            handle.set(CURLOPT_ACCEPT_ENCODING, ContentCoding.accepted)
            handle.set(CURLOPT_HTTP_CONTENT_DECODING, 0)
        } else {
            handle.set(CURLOPT_ACCEPT_ENCODING, "")
        }
        handle.set(CURLOPT_USERAGENT, configuration.userAgent)
        // Always set, "" for none: libcurl must not pick a proxy from the environment on its
        // own, or the address check would not know what it is checking.
        handle.set(CURLOPT_PROXY, proxy ?? "")
        if let file = configuration.certificateAuthorities.bundleFile { handle.set(CURLOPT_CAINFO, file) }
        if let directory = configuration.certificateAuthorities.directory { handle.set(CURLOPT_CAPATH, directory) }
        // Saturating: a timeout of 1e300 seconds is "no timeout", not a trap.
        handle.set(CURLOPT_CONNECTTIMEOUT_MS, Int(saturating: min(configuration.connectTimeout, timeout) * 1000))
        handle.set(CURLOPT_TIMEOUT_MS, max(1, Int(saturating: timeout * 1000)))
        handle.set(CURLOPT_LOW_SPEED_LIMIT, configuration.lowSpeedLimit)
        handle.set(CURLOPT_LOW_SPEED_TIME, configuration.lowSpeedTime)
        handle.set(CURLOPT_MAXFILESIZE_LARGE, configuration.maxBodyBytes)
        handle.set(CURLOPT_NOSIGNAL, 1)
        var headers: UnsafeMutablePointer<curl_slist>?
        headers = curl_slist_append(headers, "Accept: application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5")
        if let etag = request.etag { headers = curl_slist_append(headers, "If-None-Match: \(etag)") }
        if let lastModified = request.lastModified { headers = curl_slist_append(headers, "If-Modified-Since: \(lastModified)") }
        if let form = request.form {
            handle.set(CURLOPT_COPYPOSTFIELDS, form)
            headers = curl_slist_append(headers, "Content-Type: application/x-www-form-urlencoded")
        }
        defer { curl_slist_free_all(headers) }
        _ = feedmill_curl_setopt_slist(handle.raw, CURLOPT_HTTPHEADER, headers)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        _ = feedmill_curl_setopt_data_callback(handle.raw, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
            return sink.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        handle.set(CURLOPT_WRITEDATA, pointer: context)
        _ = feedmill_curl_setopt_data_callback(handle.raw, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
            // Fewer bytes than given stops the transfer: the server broke HTTP.
            return sink.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        handle.set(CURLOPT_HEADERDATA, pointer: context)
        _ = feedmill_curl_setopt_opensocket_callback(handle.raw) { context, _, address in
            guard let context, let address else { return CURL_SOCKET_BAD }
            let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
            return AddressGate.openSocket(address, sink: sink)
        }
        handle.set(CURLOPT_OPENSOCKETDATA, pointer: context)
        if configuration.stop != nil {
            handle.set(CURLOPT_NOPROGRESS, 0)
            _ = feedmill_curl_setopt_xferinfo_callback(handle.raw) { context, _, _, _, _ in
                guard let context else { return 0 }
                return Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue().shouldAbort() ? 1 : 0
            }
            handle.set(CURLOPT_XFERINFODATA, pointer: context)
        }
        return curl_easy_perform(handle.raw)
    }

    private static func seconds(_ duration: Duration) -> Double {
        duration.inSeconds
    }
}
