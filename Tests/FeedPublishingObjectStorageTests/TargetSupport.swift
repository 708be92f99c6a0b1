import FeedBasics
import FeedObjectStorage
@testable import FeedPublishingObjectStorage
import Foundation
import TestSupport

let seaweedMissing = "SeaweedFS is not installed (Scripts/setup-debian installs it under ~/.cache/feedmill)"

/// The AWS variables for `server` (or the relay in front of it), and nothing of the caller's
/// shell or home: no profile or shared file can leak in.
func awsEnvironment(_ server: S3TestServer, endpoint: String? = nil, secret: String? = nil) -> [String: String] {
    var environment = server.environment
    if let endpoint { environment["AWS_ENDPOINT_URL"] = endpoint }
    if let secret { environment["AWS_SECRET_ACCESS_KEY"] = secret }
    environment["AWS_ENDPOINT_URL_S3"] = ""
    environment["AWS_PROFILE"] = ""
    environment["AWS_SESSION_TOKEN"] = ""
    environment["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent/credentials"
    environment["AWS_CONFIG_FILE"] = "/nonexistent/config"
    return environment
}

/// The target `s3://BUCKET/prefix` on `server`.
func target(
    _ server: S3TestServer, prefix: String = "site", bucket: String? = nil, endpoint: String? = nil, secret: String? = nil,
    retry: RetryPolicy = .standard, fencingMargin: Duration = ObjectStorageTarget.defaultFencingMargin
) throws -> ObjectStorageTarget {
    let settings = try ObjectStorageSettings.fromEnvironment(awsEnvironment(server, endpoint: endpoint, secret: secret))
    return ObjectStorageTarget(place: try ObjectStorageLocation(parsing: "s3://\(bucket ?? server.bucket)/\(prefix)"), settings: settings, retry: retry, fencingMargin: fencingMargin)
}

/// A plain client of the bucket: "someone else" writing beside the publisher.
func bystander(_ server: S3TestServer) throws -> S3Client {
    S3Client(settings: try ObjectStorageSettings.fromEnvironment(awsEnvironment(server)), bucket: server.bucket)
}

/// A name as a content-addressed snapshot is called (64 hex of some bytes' sha256).
func contentName(_ bytes: [UInt8], feed: Int = 1) -> String {
    "feed_\(feed).\(SHA256.hexDigest(bytes)).sqlite"
}

/// A pid no process has: a child that has exited and been reaped.
func deadPID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}
