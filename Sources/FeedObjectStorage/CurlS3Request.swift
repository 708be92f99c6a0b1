import CCurl
import FeedBasics

#if canImport(Glibc)
import Glibc
#endif

/// One signed HTTP exchange with object storage through libcurl's own SigV4 signer
/// (`CURLOPT_AWS_SIGV4`): method, canonical URL, headers and a body in memory or streamed from
/// a file; the status, the response headers and the body out (in memory, or streamed into a
/// file). It knows nothing of S3's verbs: `S3Client` does.
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
    /// A file to send instead of `body`, read as it is sent (a feed database is never held
    /// whole in memory), with its size and SHA-256 (hex) computed beforehand.
    var upload: UploadFile?
    /// Where a successful answer's body goes instead of memory (an error's is in `body`).
    var download: String?

    struct UploadFile {
        var path: String
        var size: Int
        var sha256Hex: String
    }

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
        let source = UploadSource()
        defer { withExtendedLifetime(source) {} }
        let sink = ResponseSink()
        if let download {
            guard let file = fopen(download, "wb") else {
                throw .localFile(path: download, reason: "cannot be written (\(String(cString: strerror(errno))))")
            }
            sink.file = file
        }
        defer { if let file = sink.file { fclose(file) } }
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
        all.append((name: "x-amz-content-sha256", value: upload?.sha256Hex ?? SHA256.hexDigest(body)))
        if let token = credentials.sessionToken { all.append((name: "x-amz-security-token", value: token)) }
        switch method {
        case "GET": break
        case "HEAD": handle.set(CURLOPT_NOBODY, 1)
        case "PUT" where upload != nil:
            guard let upload, let file = fopen(upload.path, "rb") else {
                throw .localFile(path: upload?.path ?? "", reason: "cannot be read to upload it (\(String(cString: strerror(errno))))")
            }
            source.file = file
            // CURLOPT_UPLOAD is a PUT whose body libcurl reads through the callback as it
            // sends; it adds "Expect: 100-continue", which cannot be removed (see above).
            handle.set(CURLOPT_UPLOAD, 1)
            handle.set(CURLOPT_INFILESIZE_LARGE, upload.size)
            handle.set(CURLOPT_READDATA, pointer: Unmanaged.passUnretained(source).toOpaque())
            _ = feedmill_curl_setopt_data_callback(handle.raw, CURLOPT_READFUNCTION) { buffer, size, count, context in
                guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
                let source = Unmanaged<UploadSource>.fromOpaque(context).takeUnretainedValue()
                guard let file = source.file else { return Int(CURL_READFUNC_ABORT) }
                let read = fread(buffer, 1, size * count, file)
                return read == 0 && ferror(file) != 0 ? Int(CURL_READFUNC_ABORT) : read
            }
            if !all.contains(where: { $0.name.lowercased() == "content-type" }) {
                all.append((name: "Content-Type", value: "application/octet-stream"))
            }
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
            return sink.take(UnsafeRawBufferPointer(start: data, count: size * count))
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
        let status = handle.infoLong(CURLINFO_RESPONSE_CODE)
        if let file = sink.file {
            fclose(file)
            sink.file = nil
            // An error's body is S3's <Error> document: kept in memory for its code, and the
            // file (which holds it) is not the object.
            if !(200..<300).contains(status) { unlink(download ?? "") }
        }
        return Response(status: status, headers: sink.headers, body: sink.body)
    }
}

/// The file an upload is read from, for libcurl's read callback.
private final class UploadSource {
    var file: UnsafeMutablePointer<FILE>?
    deinit { if let file { fclose(file) } }
}

/// Where libcurl's callbacks put the answer. A class, so its address can travel through C.
private final class ResponseSink {
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    /// Set for a download: the body goes there, and only its first 64 KiB to `body` too (an
    /// error document is small; an object is not kept in memory).
    var file: UnsafeMutablePointer<FILE>?

    /// Takes one chunk of the body; fewer bytes than given stops the transfer (a full disk).
    func take(_ chunk: UnsafeRawBufferPointer) -> Int {
        if let file {
            if body.count < 65_536 { body.append(contentsOf: chunk.prefix(65_536 - body.count)) }
            guard let base = chunk.baseAddress else { return 0 }
            return fwrite(base, 1, chunk.count, file)
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    func header(_ line: String) {
        // A new status line (after a redirect or "100 Continue") starts a new set of headers.
        if line.hasPrefix("HTTP/") { headers = [:]; return }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingASCII(" \t\r\n")
        headers[name] = value
    }
}
