/// Why a request to object storage failed, as one line an operator can act on. The cases are
/// the outcomes a publisher must tell apart: credentials to fix, a bucket to make, a root that
/// someone else changed (another publisher committed first), and a network or server failure
/// worth retrying.
public enum ObjectStorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A standard AWS variable that must be set is not (`AWS_ACCESS_KEY_ID`, ...).
    case missingSetting(variable: String)
    /// `AWS_PROFILE` names a profile the shared files do not have, or one without a secret.
    case missingProfile(profile: String, places: String)
    /// `AWS_ENDPOINT_URL` (or the endpoint given) is not an http(s) URL with a host.
    case invalidEndpoint(String)
    /// A key the client will not send: empty, longer than S3's 1,024 bytes, or with a byte
    /// outside printable ASCII.
    case invalidKey(String)
    /// The server refused the signature or does not know the access key.
    case wrongCredentials(code: String, message: String)
    /// The credentials are valid but may not do this.
    case accessDenied(key: String, message: String)
    /// The bucket does not exist.
    case missingBucket(String)
    /// A conditional write lost: the object exists (`If-None-Match: *`) or is no longer the
    /// version read (`If-Match`). Another writer got there first.
    case preconditionFailed(key: String)
    /// Nothing usable came back: refused connection, timeout, DNS, TLS (libcurl's words).
    case network(url: String, curlCode: Int, message: String)
    /// Any other answer: the status, S3's error code and its message.
    case server(status: Int, code: String, message: String)
    /// A local file to upload could not be read, or a download could not be written.
    case localFile(path: String, reason: String)
    /// A 2xx answer the client cannot read (a listing that is not ListObjectsV2 XML).
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .missingSetting(let variable):
            "object storage: \(variable) is not set, and no profile of the shared AWS files (~/.aws/credentials, ~/.aws/config; "
                + "AWS_PROFILE chooses one) gives credentials"
        case .missingProfile(let profile, let places):
            "object storage: AWS_PROFILE is \"\(profile)\" but no usable credentials were found for \(places)"
        case .invalidEndpoint(let endpoint): "object storage: the endpoint \"\(endpoint)\" is not an http(s) URL with a host"
        case .invalidKey(let key): "object storage: \"\(key)\" cannot be an object key (1 to 1,024 bytes of printable ASCII)"
        case .wrongCredentials(let code, let message):
            "object storage refused the credentials (\(code)): \(message); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
        case .accessDenied(let key, let message): "object storage: access denied to \(key): \(message)"
        case .missingBucket(let bucket): "object storage: the bucket \"\(bucket)\" does not exist"
        case .preconditionFailed(let key): "object storage: \(key) was changed by another writer (the conditional write was refused)"
        case .network(let url, let curlCode, let message): "object storage: \(url): \(message) (curl \(curlCode))"
        case .server(let status, let code, let message): "object storage answered \(status) \(code): \(message)"
        case .malformedResponse(let what): "object storage: unreadable answer: \(what)"
        case .localFile(let path, let reason): "object storage: \(path): \(reason)"
        }
    }

    /// Worth trying again after a pause: the network, throttling (429) and server errors (5xx).
    public var isTransient: Bool {
        switch self {
        case .network: true
        case .server(let status, _, _): status == 429 || status >= 500
        default: false
        }
    }
}
