import CCurl
import FeedBasics

/// One signed HTTP exchange with object storage through libcurl's own SigV4 signer
/// (`CURLOPT_AWS_SIGV4`): method, canonical URL, headers and a body in memory; the status,
/// the response headers and the body out. It knows nothing of S3's verbs: `S3Client` does.
///
/// libcurl 7.88 signs `host`, `x-amz-date` and every header it is given, but does not
/// add `x-amz-content-sha256`, which S3 requires: every request here sets it to the body's
/// SHA-256 (hex), which curl then signs. Without it SeaweedFS answers 403 SignatureDoesNotMatch
/// for any request with a body.
struct CurlS3Request {
    var method: String
    var url: String
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    struct Response {
        var status: Int
        /// Header names lower-cased; the last value of a repeated header wins.
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Performs the exchange; a failure before any answer is `.network`.
    func perform(region: String, credentials: ObjectStorageCredentials) throws(ObjectStorageError) -> Response {
        guard let handle = CurlS3Handle() else {
            throw .network(url: url, curlCode: Int(CURLE_FAILED_INIT.rawValue), message: "libcurl could not start")
        }
        let sink = ResponseSink()
        handle.set(CURLOPT_URL, url)
        handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        handle.set(CURLOPT_NOSIGNAL, 1)
        handle.set(CURLOPT_CONNECTTIMEOUT, 10)
        // A stalled transfer (under 1 KB/s for 30 s) fails instead of hanging the publication.
        handle.set(CURLOPT_LOW_SPEED_LIMIT, 1024)
        handle.set(CURLOPT_LOW_SPEED_TIME, 30)
        handle.set(CURLOPT_AWS_SIGV4, "aws:amz:\(region):s3")
        handle.set(CURLOPT_USERNAME, credentials.accessKeyID)
        handle.set(CURLOPT_PASSWORD, credentials.secretAccessKey)

        var all = headers
        all.append((name: "x-amz-content-sha256", value: SHA256.hexDigest(body)))
        if let token = credentials.sessionToken { all.append((name: "x-amz-security-token", value: token)) }
        switch method {
        case "GET": break
        case "HEAD": handle.set(CURLOPT_NOBODY, 1)
        case "PUT":
            handle.set(CURLOPT_CUSTOMREQUEST, "PUT")
            handle.set(CURLOPT_POSTFIELDSIZE_LARGE, body.count)
            // COPYPOSTFIELDS copies the bytes (POSTFIELDSIZE of them), so `body` need not
            // outlive this call's setup; an empty body has no address: give curl an empty string.
            body.withUnsafeBytes { bytes in
                if let address = bytes.baseAddress {
                    handle.set(CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: address))
                } else {
                    handle.set(CURLOPT_COPYPOSTFIELDS, "")
                }
            }
            // Without a Content-Type of our own, curl would send a form's.
            if !all.contains(where: { $0.name.lowercased() == "content-type" }) {
                all.append((name: "Content-Type", value: "application/octet-stream"))
            }
            // No "Expect:" header to switch off 100-continue: libcurl 7.88 signs a removed
            // header as an empty one it never sends, and the signature no longer matches.
        default: handle.set(CURLOPT_CUSTOMREQUEST, method)
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in all {
            list = curl_slist_append(list, "\(header.name): \(header.value)")
        }
        defer { curl_slist_free_all(list) }
        _ = feedmill_curl_setopt_slist(handle.raw, CURLOPT_HTTPHEADER, list)

        let context = Unmanaged.passUnretained(sink).toOpaque()
        handle.set(CURLOPT_WRITEDATA, pointer: context)
        _ = feedmill_curl_setopt_data_callback(handle.raw, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
            sink.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        handle.set(CURLOPT_HEADERDATA, pointer: context)
        _ = feedmill_curl_setopt_data_callback(handle.raw, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<ResponseSink>.fromOpaque(context).takeUnretainedValue()
            sink.header(String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self))
            return size * count
        }

        let code = curl_easy_perform(handle.raw)
        guard code == CURLE_OK else {
            throw .network(url: url, curlCode: Int(code.rawValue), message: handle.errorText ?? String(cString: curl_easy_strerror(code)))
        }
        return Response(status: handle.infoLong(CURLINFO_RESPONSE_CODE), headers: sink.headers, body: sink.body)
    }
}

/// Where libcurl's callbacks put the answer. A class, so its address can travel through C.
private final class ResponseSink {
    var headers: [String: String] = [:]
    var body: [UInt8] = []

    func header(_ line: String) {
        // A new status line (after a redirect or "100 Continue") starts a new set of headers.
        if line.hasPrefix("HTTP/") { headers = [:]; return }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingASCII(" \t\r\n")
        headers[name] = value
    }
}
