import FeedObjectStorage
import Foundation
import TestSupport
import Testing

/// A server whose listing pages never end (a continuation token it gave before, again and
/// again): the listing stops with an error, not after the memory or the patience runs out.
@Suite("listings that go round")
struct ListingLoopTests {
    @Test(arguments: [["same"], ["first", "second"]])
    func aContinuationTokenGivenAgainStopsTheListing(_ tokens: [String]) throws {
        let served = PageCount()
        let server = try TestHTTPServer { _ in
            let count = served.next()
            // A bound for the test alone: an unstopped listing ends here with a 400 after 50 pages.
            guard count < 50 else { return .init(status: 400, contentType: "application/xml", body: "<Error><Code>Stop</Code></Error>") }
            let token = tokens[count % tokens.count]
            return .init(
                contentType: "application/xml",
                body: "<ListBucketResult><Contents><Key>k\(count)</Key><ETag>\"e\"</ETag><Size>1</Size></Contents>"
                    + "<IsTruncated>true</IsTruncated><NextContinuationToken>\(token)</NextContinuationToken></ListBucketResult>")
        }
        defer { server.stop() }
        let settings = try ObjectStorageSettings.fromEnvironment([
            "AWS_ENDPOINT_URL": server.baseURL, "AWS_ACCESS_KEY_ID": "key", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "us-east-1",
            "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials", "AWS_CONFIG_FILE": "/nonexistent/config",
        ])
        let s3 = S3Client(settings: settings, bucket: "bucket", retry: .once)
        let error = try #require(throws: ObjectStorageError.self) { try s3.list(prefix: "site/") }
        guard case .malformedResponse(let what) = error else { Issue.record("\(error)"); return }
        #expect(what.contains("continuation token"), "\(what)")
        #expect(served.value == tokens.count + 1, "stopped at the first token given again")
    }
}

/// How many pages the server gave, across its threads.
private final class PageCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The count before this page.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count - 1
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
