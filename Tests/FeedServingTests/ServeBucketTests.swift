import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-serve --out s3://bucket/prefix`: several instances (as behind a load balancer) watch
/// one publication in a real S3 server (SeaweedFS), each by a conditional GET of its root.
@Suite("rss-serve over a publication in a bucket")
struct ServeBucketTests {
    /// The AWS variables for `server`, and nothing of the caller's shell or home.
    static func aws(_ server: S3TestServer) -> [String: String] {
        var environment = server.environment
        environment["AWS_ENDPOINT_URL_S3"] = ""
        environment["AWS_PROFILE"] = ""
        environment["AWS_SESSION_TOKEN"] = ""
        environment["AWS_SHARED_CREDENTIALS_FILE"] = "/nonexistent/credentials"
        environment["AWS_CONFIG_FILE"] = "/nonexistent/config"
        return environment
    }

    @Test(.enabled(if: S3TestServer.shouldRun, "SeaweedFS is not installed (Scripts/setup-debian installs it)"))
    func twoInstancesOverOneBucketEachStreamTheNextPublication() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        let environment = Self.aws(server)
        let run = try BinaryRun(feeds: 2, items: 2)
        #expect(try run.createAll().status == 0)
        let out = "s3://\(server.bucket)/site"
        let first = try run.publish.runCapturing(["--data-dir", run.data, "--out", out, "--now", "1800000000"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let scratch = run.root.url.path
        let instances = [
            try ServeProcess(out: out, in: scratch, extra: ["--heartbeat", "0.5"], environment: environment),
            try ServeProcess(out: out, in: scratch, environment: environment),
        ]
        let readers = try [
            EventReader(instances[0].baseURL + "/events?feeds=1", in: scratch),
            EventReader(instances[1].baseURL + "/events?feeds=1,2", in: scratch),
        ]
        for reader in readers { #expect(reader.wait { $0.contains { $0.kind == "entry" } }, "\(reader.text)") }
        let entry1 = try #require(readers[0].events.first { $0.kind == "entry" })
        #expect(readers[1].wait { $0.filter { $0.kind == "entry" }.count == 2 }, "an entry per followed feed: \(readers[1].text)")
        for instance in instances {
            let health = try curl([instance.baseURL + "/healthz"])
            #expect(health.head.hasPrefix("HTTP/1.1 200") && health.body.contains("\"generation\""), "\(health)")
            // The files are the bucket's: a client reads them there, not through rss-serve.
            let file = try curl([instance.baseURL + "/manifest.json"])
            #expect(file.head.hasPrefix("HTTP/1.1 404") && file.body.contains(out), "\(file)")
        }

        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("bucket-live-1", title: "From the bucket")], now: 5_000)
        let committed = Date()
        let second = try run.publish.runCapturing(["--data-dir", run.data, "--out", out, "--now", "1800003600"], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        for reader in readers {
            #expect(reader.wait(seconds: 8) { $0.contains { $0.kind == "patch" } }, "\(reader.text)")
            let patch = try #require(reader.events.first { $0.kind == "patch" })
            #expect(patch.id == entry1.id + 1 && patch.data["feedid"] as? Int == 1, "\(patch.data)")
            #expect(patch.data["from_version"] as? Int == entry1.data["to_version"] as? Int)
            let operations = try #require(patch.data["patch"] as? [[String: Any]])
            #expect(operations.contains { ($0["path"] as? String)?.contains("bucket-live-1") == true }, "\(operations)")
            #expect(!reader.events.contains { $0.kind != "entry" && $0.data["feedid"] as? Int == 2 }, "feed 2 did not change")
        }
        let seconds = Date().timeIntervalSince(committed)
        #expect(seconds < 8, "noticed within the look interval of the commit (\(seconds) s, the publication's own run included)")

        for instance in instances {
            let stopped = instance.stop()
            #expect(stopped.status == 0, "\(stopped): \(instance.logText)")
        }
    }

    @Test(.enabled(if: S3TestServer.shouldRun, "SeaweedFS is not installed (Scripts/setup-debian installs it)"))
    func aBucketThatCannotBeReadIsSaidOnceAndLookedAtAgain() throws {
        let server = try S3TestServer.start()
        defer { server.stop() }
        var environment = Self.aws(server)
        environment["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        let scratch = try TemporaryDirectory()
        let serve = try ServeProcess(out: "s3://\(server.bucket)/site", in: scratch.url.path, environment: environment)
        usleep(2_500_000)
        let health = try curl([serve.baseURL + "/healthz"])
        #expect(health.head.hasPrefix("HTTP/1.1 503"), "no publication known: \(health)")
        let log = serve.logText
        #expect(log.components(separatedBy: "cannot be read").count == 2, "said once, not every second: \(log)")
        #expect(serve.stop().status == 0)
    }
}
