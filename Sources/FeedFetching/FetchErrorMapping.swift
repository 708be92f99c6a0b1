import CCurl

/// libcurl result codes grouped into ``FetchError/Kind``s, each with a message a person reads
/// that names the real cause: the proxy when it was the proxy, the server's broken reply when
/// it was the server.
enum FetchErrorMapping {
    /// One failed hop.
    struct Hop {
        var url: String
        /// The proxy the hop went through, if any.
        var proxy: String?
        /// libcurl's error buffer (``CurlEasyHandle/errorText``).
        var libcurlText: String?
    }

    static func error(for code: CURLcode, hop: Hop, sink: TransferSink, configuration: FetchConfiguration) -> FetchError {
        let curlCode = Int(code.rawValue)
        // libcurl's own words about this failure say more than the result code's name
        // ("SSL certificate problem: self-signed certificate", not "SSL peer certificate or
        // SSH remote key was not OK").
        let detail = hop.libcurlText ?? String(cString: curl_easy_strerror(code))
        func make(_ kind: FetchError.Kind, _ message: String) -> FetchError {
            FetchError(kind: kind, url: hop.url, message: message, curlCode: curlCode)
        }
        let proxy = hop.proxy.map(ProxyURL.withoutCredentials)
        let answerer = proxy.map { "server (through the proxy \($0))" } ?? "server"
        if sink.interrupted {
            var error = make(.interrupted, "interrupted: the run was told to stop")
            error.status = sink.status
            return error
        }
        if let violation = sink.protocolViolation {
            return make(.protocolViolation, "the \(answerer) \(violation)")
        }
        if let blocked = sink.blockedAddress {
            return make(.blockedAddress, "refused to connect to \(blocked): not a public address (to fetch it, pass --allow-private-networks or set allow-private-networks = true)")
        }
        if let failure = sink.stream.decodingFailure {
            return make(.network, failure)
        }
        if sink.stream.stoppedByConsumer {
            return make(.network, "stopped: the body's reader needed no more of it")
        }
        if sink.exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            return make(.tooLarge, "body larger than \(configuration.maxBodyBytes) bytes")
        }
        switch code {
        case CURLE_OUT_OF_MEMORY where !sink.receivedBody:
            // libcurl 7.88 reports one response header over its 100 KiB limit as out of memory.
            return make(.tooLarge, "response headers too large (libcurl accepts at most 100 KiB in one header)")
        case CURLE_RECV_ERROR where !sink.receivedBody && detail.hasPrefix("Too large response headers"):
            // Debian's 7.88 (the fix for CVE-2023-38039) stops at 300 KiB of headers in all,
            // thousands of Set-Cookie lines for instance, as a receive error.
            return make(.tooLarge, "response headers too large (libcurl accepts at most 300 KiB of headers in all: \(detail))")
        case CURLE_URL_MALFORMAT:
            return make(.invalidURL, "not a valid URL")
        case CURLE_UNSUPPORTED_PROTOCOL where !isFetched(hop.url, configuration):
            return make(.unsupportedScheme, "only http and https URLs are fetched")
        case CURLE_UNSUPPORTED_PROTOCOL where detail.contains("HTTP/0.9"):
            // The URL's scheme is fetched, so what libcurl refused is the reply.
            return make(.protocolViolation, "the \(answerer) answered without an HTTP status line (an HTTP/0.9 reply, or not HTTP at all)")
        case CURLE_WEIRD_SERVER_REPLY:
            return make(.protocolViolation, "the \(answerer) sent a reply that is not valid HTTP: \(detail)")
        case CURLE_COULDNT_RESOLVE_PROXY:
            return make(.dns, "the proxy \(proxy ?? "") could not be reached: its host name could not be resolved")
        case CURLE_COULDNT_RESOLVE_HOST:
            return make(.dns, "host name could not be resolved")
        case CURLE_COULDNT_CONNECT where proxy != nil:
            return make(.connect, "the proxy \(proxy ?? "") could not be reached: connection refused or unreachable (\(detail))")
        case CURLE_COULDNT_CONNECT:
            return make(.connect, "connection refused or unreachable (\(detail))")
        case CURLE_OPERATION_TIMEDOUT:
            return make(.timeout, "timed out (\(detail))" + (proxy.map { " through the proxy \($0)" } ?? ""))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR:
            return make(.tls, "TLS failed: \(detail)")
        default:
            return make(.network, detail)
        }
    }

    /// A URL of a scheme the fetcher asked libcurl to fetch.
    private static func isFetched(_ url: String, _ configuration: FetchConfiguration) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || (configuration.allowFileURLs && lowered.hasPrefix("file:"))
    }
}
