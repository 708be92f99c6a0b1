import CCurl

/// Fetches one URL with libcurl: redirects followed up to a limit, every content encoding
/// libcurl supports accepted, timeouts and a low-speed cut-off, a decompressed-size cap,
/// and only `http`/`https` (plus `file` when the configuration allows it).
///
/// One fetcher owns one curl handle and is used by one thread at a time.
public final class HTTPFetcher {
    public let configuration: FetchConfiguration
    private let handle: CurlEasyHandle?

    public init(configuration: FetchConfiguration = .default) {
        self.configuration = configuration
        self.handle = CurlEasyHandle()
    }

    public func fetch(_ url: String) throws(FetchError) -> FetchedDocument {
        guard let handle else {
            throw FetchError(kind: .network, url: url, message: "libcurl could not be initialised")
        }
        let sink = TransferSink(limit: configuration.maxBodyBytes)
        configure(handle, url: url, sink: sink)
        let code = curl_easy_perform(handle.raw)
        let status = handle.infoLong(CURLINFO_RESPONSE_CODE)
        let finalURL = handle.infoString(CURLINFO_EFFECTIVE_URL) ?? url
        if code != CURLE_OK {
            throw FetchErrorMapping.error(for: code, url: url, sink: sink, configuration: configuration)
        }
        if status >= 400 {
            throw FetchError(kind: .httpStatus, url: url, message: "HTTP status \(status)", status: status)
        }
        return FetchedDocument(
            status: status, finalURL: finalURL, contentType: sink.header("content-type"),
            etag: sink.header("etag"), lastModified: sink.header("last-modified"), body: sink.body)
    }

    private func configure(_ handle: CurlEasyHandle, url: String, sink: TransferSink) {
        curl_easy_reset(handle.raw)
        let protocols = configuration.allowFileURLs ? "http,https,file" : "http,https"
        handle.set(CURLOPT_URL, url)
        handle.set(CURLOPT_PROTOCOLS_STR, protocols)
        handle.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        handle.set(CURLOPT_FOLLOWLOCATION, 1)
        handle.set(CURLOPT_MAXREDIRS, configuration.maxRedirects)
        handle.set(CURLOPT_ACCEPT_ENCODING, "")
        handle.set(CURLOPT_USERAGENT, configuration.userAgent)
        handle.set(CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000))
        handle.set(CURLOPT_TIMEOUT_MS, Int(configuration.totalTimeout * 1000))
        handle.set(CURLOPT_LOW_SPEED_LIMIT, configuration.lowSpeedLimit)
        handle.set(CURLOPT_LOW_SPEED_TIME, configuration.lowSpeedTime)
        handle.set(CURLOPT_MAXFILESIZE_LARGE, configuration.maxBodyBytes)
        handle.set(CURLOPT_NOSIGNAL, 1)
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
            sink.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        handle.set(CURLOPT_HEADERDATA, pointer: context)
    }
}
