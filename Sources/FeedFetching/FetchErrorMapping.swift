import CCurl

/// libcurl result codes grouped into ``FetchError/Kind``s, each with a message a person reads.
enum FetchErrorMapping {
    static func error(for code: CURLcode, url: String, sink: TransferSink, configuration: FetchConfiguration) -> FetchError {
        let curlCode = Int(code.rawValue)
        let detail = String(cString: curl_easy_strerror(code))
        func make(_ kind: FetchError.Kind, _ message: String) -> FetchError {
            FetchError(kind: kind, url: url, message: message, curlCode: curlCode)
        }
        if sink.interrupted {
            return make(.interrupted, "interrupted: the run was told to stop")
        }
        if let blocked = sink.blockedAddress {
            return make(.blockedAddress, "refused to connect to \(blocked): not a public address (allow private networks to fetch it)")
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
            // libcurl 7.88 reports a response header over its 100 KiB limit as out of memory.
            return make(.tooLarge, "response headers too large (libcurl accepts at most 100 KiB of headers)")
        case CURLE_URL_MALFORMAT:
            return make(.invalidURL, "not a valid URL")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return make(.unsupportedScheme, "only http and https URLs are fetched")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return make(.dns, "host name could not be resolved")
        case CURLE_COULDNT_CONNECT:
            return make(.connect, "connection refused or unreachable")
        case CURLE_OPERATION_TIMEDOUT:
            return make(.timeout, "timed out (\(detail))")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR:
            return make(.tls, "TLS failed: \(detail)")
        default:
            return make(.network, detail)
        }
    }
}
