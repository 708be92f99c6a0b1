import FeedObjectStorage
import Foundation
import TestSupport
import Testing

@Suite("failures a publisher must tell apart")
struct FailureTests {
    @Test("a wrong secret or an unknown key is wrong credentials; a missing bucket is named", .enabled(if: S3TestServer.shouldRun, "\(seaweedMissing)"))
    func refusedRequests() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let wrongSecret = try client(for: server, secret: "not-the-secret")
        for attempt in [{ _ = try wrongSecret.put("a", [1]) }, { _ = try wrongSecret.get("a") }, { _ = try wrongSecret.list() }] {
            let error = try #require(throws: ObjectStorageError.self, performing: attempt)
            guard case .wrongCredentials(let code, _) = error else { Issue.record("\(error)"); continue }
            #expect(code == "SignatureDoesNotMatch")
            #expect(!error.isTransient)
        }
        let unknownKey = try client(for: server, accessKey: "nobody")
        let error = try #require(throws: ObjectStorageError.self) { try unknownKey.put("a", [1]) }
        guard case .wrongCredentials(let code, _) = error else { Issue.record("\(error)"); return }
        #expect(code == "InvalidAccessKeyId")
        #expect(error.description.contains("AWS_ACCESS_KEY_ID"))
        #expect(!error.description.contains("not-the-secret"))

        let missing = try client(for: server, bucket: "no-such-bucket")
        #expect(throws: ObjectStorageError.missingBucket("no-such-bucket")) { try missing.put("a", [1]) }
        #expect(throws: ObjectStorageError.missingBucket("no-such-bucket")) { try missing.get("a") }
        #expect(throws: ObjectStorageError.missingBucket("no-such-bucket")) { try missing.head("a") }
        #expect(throws: ObjectStorageError.missingBucket("no-such-bucket")) { try missing.list() }
        // Nothing was made by the attempts: the server does not create buckets on upload.
        #expect(throws: ObjectStorageError.missingBucket("no-such-bucket")) { try missing.list() }
    }

    @Test("an endpoint that refuses connections is a network failure worth retrying")
    func refusedConnection() throws {
        // A port that was free a moment ago and has no listener now.
        let port = try closedPort()
        let settings = try ObjectStorageSettings.fromEnvironment([
            "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_ENDPOINT_URL": "http://127.0.0.1:\(port)",
        ])
        let error = try #require(throws: ObjectStorageError.self) { try S3Client(settings: settings, bucket: "b").put("a", [1]) }
        guard case .network(let url, let curlCode, _) = error else { Issue.record("\(error)"); return }
        #expect(url == "http://127.0.0.1:\(port)/b/a")
        #expect(curlCode == 7)  // CURLE_COULDNT_CONNECT
        #expect(error.isTransient)
    }

    @Test("a key the client cannot send is refused before any request")
    func invalidKeys() throws {
        let settings = ObjectStorageSettings(endpoint: "http://127.0.0.1:9", region: "us-east-1", credentials: .init(accessKeyID: "k", secretAccessKey: "s"))
        let s3 = S3Client(settings: settings, bucket: "b")
        for key in ["", String(repeating: "a", count: 1025), "tab\there", "new\nline", "caf\u{E9}"] {
            #expect(throws: ObjectStorageError.invalidKey(key)) { try s3.put(key, []) }
        }
    }

    private func closedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
