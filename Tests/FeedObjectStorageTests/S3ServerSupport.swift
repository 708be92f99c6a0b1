import FeedObjectStorage
import TestSupport

/// A client for `server`'s bucket with the credentials the server accepts, read the way the
/// publisher reads them: from the standard AWS variables.
func client(for server: S3TestServer, bucket: String? = nil, secret: String? = nil, accessKey: String? = nil) throws -> S3Client {
    var environment = server.environment
    if let secret { environment["AWS_SECRET_ACCESS_KEY"] = secret }
    if let accessKey { environment["AWS_ACCESS_KEY_ID"] = accessKey }
    return S3Client(settings: try ObjectStorageSettings.fromEnvironment(environment), bucket: bucket ?? server.bucket)
}

let seaweedMissing = "SeaweedFS is not installed (Scripts/setup-debian installs it under ~/.cache/feedmill)"
