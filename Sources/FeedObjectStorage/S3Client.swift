import FeedBasics
import Foundation

/// The verbs a publisher needs from one S3-compatible bucket: put (optionally conditional),
/// get, head, delete and list, each one signed request through libcurl. Addresses are
/// path-style (`ENDPOINT/BUCKET/KEY`), which every S3-compatible server accepts. No retries
/// here: `ObjectStorageError.isTransient` says which failures the caller may retry.
public struct S3Client: Sendable {
    public let settings: ObjectStorageSettings
    public let bucket: String

    public init(settings: ObjectStorageSettings, bucket: String) {
        self.settings = settings
        self.bucket = bucket
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
        request.headers = [
            (name: "Content-Type", value: options.contentType),
            (name: "x-amz-checksum-sha256", value: Data(digest.finalize()).base64EncodedString()),
        ]
        if let cacheControl = options.cacheControl { request.headers.append((name: "Cache-Control", value: cacheControl)) }
        switch options.condition {
        case .none: break
        case .absent: request.headers.append((name: "If-None-Match", value: "*"))
        case .matches(let etag): request.headers.append((name: "If-Match", value: etag))
        }
        let response = try send(request, key: key)
        return response.headers["etag"] ?? ""
    }

    /// The object, or nil when there is none at `key`.
    public func get(_ key: String) throws(ObjectStorageError) -> StoredObject? {
        let response = try send(try request("GET", key: key), key: key, absentIsNil: true)
        guard let response else { return nil }
        return StoredObject(etag: response.headers["etag"] ?? "", contentType: response.headers["content-type"], body: response.body)
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
        repeat {
            var query: [(name: String, value: String)] = [("list-type", "2"), ("max-keys", String(pageSize)), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let url = "\(settings.endpoint)/\(S3URIEncoding.path(bucket))?\(S3URIEncoding.query(query))"
            let response = try send(CurlS3Request(method: "GET", url: url), key: bucket)
            let page = try ListObjectsPage(xml: response.body)
            objects += page.objects
            token = page.nextContinuationToken
            if page.isTruncated && token == nil { throw .malformedResponse("a truncated listing without a continuation token") }
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
        let response = try request.perform(region: settings.region, credentials: settings.credentials)
        if (200..<300).contains(response.status) { return response }
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
            if absentIsNil, try bucketExists() { return nil }
            throw .missingBucket(bucket)
        case (404, _) where absentIsNil: return nil
        // 409 ConditionalRequestConflict: AWS's answer when another conditional write to the
        // key is in flight; the outcome for the writer is the same as a refused condition.
        case (412, _), (409, "ConditionalRequestConflict"): throw .preconditionFailed(key: key)
        default: throw .server(status: response.status, code: code, message: message)
        }
    }

    private func bucketExists() throws(ObjectStorageError) -> Bool {
        let url = "\(settings.endpoint)/\(S3URIEncoding.path(bucket))"
        let response = try CurlS3Request(method: "HEAD", url: url).perform(region: settings.region, credentials: settings.credentials)
        return (200..<300).contains(response.status)
    }
}
