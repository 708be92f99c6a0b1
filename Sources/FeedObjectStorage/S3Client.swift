import FeedBasics
import Foundation
import Synchronization

/// The verbs a publisher needs from one S3-compatible bucket: put (optionally conditional),
/// get, head, delete and list, each one signed request through libcurl. Addresses are
/// path-style (`ENDPOINT/BUCKET/KEY`), which every S3-compatible server accepts. Each request
/// is tried again after a transient failure as ``retry`` allows (``RetryPolicy``): a refused
/// condition (412) or any other 4xx is reported at once.
public struct S3Client: Sendable {
    public let settings: ObjectStorageSettings
    public let bucket: String
    public let retry: RetryPolicy
    /// Hears of every retry: the failure, the try that failed (1-based) and the pause.
    public let onRetry: @Sendable (ObjectStorageError, Int, Duration) -> Void
    /// Whether the bucket is known to exist (a request succeeded): then a HEAD's bodiless 404
    /// is a missing key without asking the bucket again.
    private let bucketSeen: BucketSeen

    public init(
        settings: ObjectStorageSettings, bucket: String, retry: RetryPolicy = .standard,
        onRetry: @escaping @Sendable (ObjectStorageError, Int, Duration) -> Void = { _, _, _ in }
    ) {
        self.settings = settings
        self.bucket = bucket
        self.retry = retry
        self.onRetry = onRetry
        bucketSeen = BucketSeen()
    }

    private init(_ other: S3Client, retry: RetryPolicy) {
        settings = other.settings
        bucket = other.bucket
        self.retry = retry
        onRetry = other.onRetry
        bucketSeen = other.bucketSeen
    }

    /// The same bucket with another retry policy.
    public func retrying(_ policy: RetryPolicy) -> S3Client {
        S3Client(self, retry: policy)
    }

    /// Uploads `body` with its SHA-256 as `x-amz-checksum-sha256`, which the server checks
    /// against the bytes it received; returns the new ETag. A refused condition is
    /// `.preconditionFailed`.
    @discardableResult
    public func put(_ key: String, _ body: [UInt8], options: PutOptions = PutOptions()) throws(ObjectStorageError) -> String {
        var request = try request("PUT", key: key)
        request.body = body
        var digest = SHA256()
        digest.update(body)
        request.headers = Self.putHeaders(options, sha256: digest.finalize())
        let response = try send(request, key: key)
        return response.headers["etag"] ?? ""
    }

    /// Uploads the file at `path` as `key`, read as it is sent rather than held in memory
    /// (its SHA-256 comes from a first pass over it); otherwise as ``put(_:_:options:)``.
    @discardableResult
    public func put(_ key: String, fileAt path: String, options: PutOptions = PutOptions()) throws(ObjectStorageError) -> String {
        var request = try request("PUT", key: key)
        let (digest, size) = try Self.sha256(ofFile: path)
        request.upload = .init(path: path, size: size, sha256Hex: SHA256.hex(digest))
        request.headers = Self.putHeaders(options, sha256: digest)
        let response = try send(request, key: key)
        return response.headers["etag"] ?? ""
    }

    /// Downloads the object into a file at `path` (replaced); its ETag, or nil when there is
    /// no object at `key` (then no file is left at `path`).
    public func download(_ key: String, to path: String) throws(ObjectStorageError) -> String? {
        var request = try request("GET", key: key)
        request.download = path
        guard let response = try send(request, key: key, absentIsNil: true) else { return nil }
        return response.headers["etag"] ?? ""
    }

    private static func putHeaders(_ options: PutOptions, sha256: [UInt8]) -> [(name: String, value: String)] {
        var headers = [
            (name: "Content-Type", value: options.contentType),
            (name: "x-amz-checksum-sha256", value: Data(sha256).base64EncodedString()),
        ]
        if let cacheControl = options.cacheControl { headers.append((name: "Cache-Control", value: cacheControl)) }
        switch options.condition {
        case .none: break
        case .absent: headers.append((name: "If-None-Match", value: "*"))
        case .matches(let etag): headers.append((name: "If-Match", value: etag))
        }
        return headers
    }

    private static func sha256(ofFile path: String) throws(ObjectStorageError) -> (digest: [UInt8], size: Int) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .localFile(path: path, reason: "cannot be read to upload it")
        }
        defer { try? handle.close() }
        var digest = SHA256()
        var size = 0
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw .localFile(path: path, reason: "cannot be read to upload it: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            size += chunk.count
            chunk.withUnsafeBytes { digest.update($0) }
        }
        return (digest.finalize(), size)
    }

    /// The object, or nil when there is none at `key`.
    public func get(_ key: String) throws(ObjectStorageError) -> StoredObject? {
        let response = try send(try request("GET", key: key), key: key, absentIsNil: true)
        guard let response else { return nil }
        return StoredObject(
            etag: response.headers["etag"] ?? "", contentType: response.headers["content-type"], cacheControl: response.headers["cache-control"],
            body: response.body)
    }

    /// The object unless its ETag is still `etag` (`If-None-Match`: the server answers 304
    /// without the body): how a reader watches a small object, such as a publication's root,
    /// every second for the price of a header when it has not changed.
    public func get(_ key: String, unlessETag etag: String?) throws(ObjectStorageError) -> ConditionalRead {
        var request = try request("GET", key: key)
        if let etag { request.headers = [(name: "If-None-Match", value: etag)] }
        guard let response = try send(request, key: key, absentIsNil: true) else { return .absent }
        if response.status == 304 { return .unchanged }
        return .changed(StoredObject(
            etag: response.headers["etag"] ?? "", contentType: response.headers["content-type"], cacheControl: response.headers["cache-control"],
            body: response.body))
    }

    /// The object's ETag and size, or nil when there is none at `key`.
    public func head(_ key: String) throws(ObjectStorageError) -> StoredObjectInfo? {
        let response = try send(try request("HEAD", key: key), key: key, absentIsNil: true)
        guard let response else { return nil }
        return StoredObjectInfo(key: key, etag: response.headers["etag"] ?? "", size: Int(response.headers["content-length"] ?? "") ?? 0)
    }

    /// Deletes the object; deleting one that is not there is not an error (S3 answers 204 both ways).
    public func delete(_ key: String) throws(ObjectStorageError) {
        _ = try send(try request("DELETE", key: key), key: key)
    }

    /// Every object under `prefix`, in key order, following ListObjectsV2's continuation
    /// tokens `pageSize` keys at a time (S3 gives at most 1,000).
    public func list(prefix: String = "", pageSize: Int = 1000) throws(ObjectStorageError) -> [StoredObjectInfo] {
        var objects: [StoredObjectInfo] = []
        var token: String?
        var tokens: Set<String> = []
        repeat {
            var query: [(name: String, value: String)] = [("list-type", "2"), ("max-keys", String(pageSize)), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let url = "\(settings.endpoint)/\(S3URIEncoding.path(bucket))?\(S3URIEncoding.query(query))"
            let response = try send(CurlS3Request(method: "GET", url: url), key: bucket)
            let page = try ListObjectsPage(xml: response.body)
            objects += page.objects
            token = page.nextContinuationToken
            if page.isTruncated && token == nil { throw .malformedResponse("a truncated listing without a continuation token") }
            // A token given before would list the same pages again, for ever.
            if let token, !tokens.insert(token).inserted { throw .malformedResponse("a listing that gives a continuation token again") }
        } while token != nil
        return objects
    }

    private func request(_ method: String, key: String) throws(ObjectStorageError) -> CurlS3Request {
        guard !key.isEmpty, key.utf8.count <= 1024, key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw .invalidKey(key) }
        return CurlS3Request(method: method, url: "\(settings.endpoint)/\(S3URIEncoding.path(bucket))/\(S3URIEncoding.path(key))")
    }

    private func send(_ request: CurlS3Request, key: String) throws(ObjectStorageError) -> CurlS3Request.Response {
        // `absentIsNil: false` never returns nil: a 404 is thrown as an error instead.
        guard let response = try send(request, key: key, absentIsNil: false) else { throw .server(status: 404, code: "NoSuchKey", message: key) }
        return response
    }

    /// The answer when it is a success; nil for a missing key when `absentIsNil`; else the
    /// error the status and S3's `<Error>` document name.
    private func send(_ request: CurlS3Request, key: String, absentIsNil: Bool) throws(ObjectStorageError) -> CurlS3Request.Response? {
        let response = try retry.run({ () throws(ObjectStorageError) -> CurlS3Request.Response in
            let response = try request.perform(region: settings.region, credentials: settings.credentials)
            // 429 and 5xx are thrown here so that they are tried again; the last is kept.
            if response.status == 429 || response.status >= 500 { throw Self.error(of: response) }
            return response
        }, onRetry: onRetry)
        // 304 only answers a request that asked with If-None-Match (``get(_:unlessETag:)``).
        if (200..<300).contains(response.status) || (response.status == 304 && request.headers.contains { $0.name == "If-None-Match" }) {
            bucketSeen.seen()
            return response
        }
        let document = Substring(String(decoding: response.body, as: UTF8.self))
        let code = S3XML.text(of: "Code", in: document) ?? ""
        let message = S3XML.text(of: "Message", in: document) ?? ""
        switch (response.status, code) {
        case (403, "InvalidAccessKeyId"), (403, "SignatureDoesNotMatch"), (403, "InvalidToken"), (403, "ExpiredToken"),
             (400, "InvalidToken"), (400, "ExpiredToken"):
            throw .wrongCredentials(code: code, message: message)
        case (403, _): throw .accessDenied(key: key, message: message.isEmpty ? "status 403" : message)
        case (404, "NoSuchBucket"): throw .missingBucket(bucket)
        // A HEAD has no body to say which is missing: ask the bucket.
        case (404, "") where request.method == "HEAD":
            if absentIsNil, bucketSeen.known { return nil }
            if absentIsNil, try bucketExists() {
                bucketSeen.seen()
                return nil
            }
            throw .missingBucket(bucket)
        case (404, _) where absentIsNil: return nil
        // 409 ConditionalRequestConflict: AWS's answer when another conditional write to the
        // key is in flight; the outcome for the writer is the same as a refused condition.
        case (412, _), (409, "ConditionalRequestConflict"): throw .preconditionFailed(key: key)
        default: throw .server(status: response.status, code: code, message: message)
        }
    }

    /// A 429 or 5xx answer as the error to retry on.
    private static func error(of response: CurlS3Request.Response) -> ObjectStorageError {
        let document = Substring(String(decoding: response.body, as: UTF8.self))
        return .server(status: response.status, code: S3XML.text(of: "Code", in: document) ?? "", message: S3XML.text(of: "Message", in: document) ?? "")
    }

    private func bucketExists() throws(ObjectStorageError) -> Bool {
        let url = "\(settings.endpoint)/\(S3URIEncoding.path(bucket))"
        let response = try retry.run({ () throws(ObjectStorageError) in
            try CurlS3Request(method: "HEAD", url: url).perform(region: settings.region, credentials: settings.credentials)
        }, onRetry: onRetry)
        return (200..<300).contains(response.status)
    }
}

/// Shared by the copies of a client: set once a request to the bucket has succeeded.
private final class BucketSeen: Sendable {
    private let flag = Mutex(false)
    func seen() { flag.withLock { $0 = true } }
    var known: Bool { flag.withLock { $0 } }
}
