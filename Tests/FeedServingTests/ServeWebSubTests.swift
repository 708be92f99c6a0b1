@testable import FeedServing
import FeedBasics
import FeedPipeline
import FeedPublishing
import FeedStorage
import Logging
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// rss-serve as a WebSub subscriber, against a hub that follows the W3C spec
/// (`Hub/websub-hub.py`): rss-update records the hub, rss-serve subscribes, the hub verifies,
/// a signed push becomes an event at a connected reader; forged, unsigned, oversized and
/// unsolicited requests are refused and nothing of them stored or published.
@Suite("rss-serve: WebSub", .serialized)
struct ServeWebSubTests {
    /// A data directory whose one feed advertises the test hub, published, and rss-serve
    /// subscribed to it (verified by the hub).
    struct Subscribed {
        let hub: WebSubHubProcess
        let root: TemporaryDirectory
        let serve: ServeProcess
        let port: Int
        var data: String { root.url.path + "/data" }
        var out: String { root.url.path + "/publish" }
        var options: [String] { ["--data-dir", data, "--allow-private-networks"] }

        /// `environment`: rss-serve's additions, given the data directory.
        init(environment: (String) -> [String: String] = { _ in [:] }) throws {
            hub = try WebSubHubProcess()
            root = try TemporaryDirectory()
            let (data, out) = (root.url.path + "/data", root.url.path + "/publish")
            let options = ["--data-dir", data, "--allow-private-networks"]
            #expect(try Executable(name: "rss-create").runCapturing(["--opml", hub.baseURL + "/list.opml"] + options).status == 0)
            #expect(try Executable(name: "rss-update").runCapturing(["--all"] + options).status == 0)
            #expect(try Executable(name: "rss-publish").runCapturing(["--data-dir", data, "--out", out]).status == 0)
            port = WebSubHubProcess.freePort()
            serve = try ServeProcess(
                out: out, in: root.url.path, listen: "127.0.0.1:\(port)",
                extra: ["--data-dir", data, "--public-url", "http://127.0.0.1:\(port)/", "--allow-private-networks",
                        "--websub-check", "0.5", "--max-size", "1"],
                environment: environment(data))
        }
    }

    @Test func aSignedPushReachesAConnectedReaderAndForgeriesAreRefused() throws {
        let subscribed = try Subscribed()
        let (hub, root, serve, port, data, options) = (subscribed.hub, subscribed.root, subscribed.serve, subscribed.port, subscribed.data, subscribed.options)
        // What the feed advertised, recorded by rss-update.
        let recorded = try sqlite(data + "/all_feeds.sqlite", "SELECT websub_hub, websub_topic FROM fetch_state WHERE feedid = 1")
        #expect(recorded.first == [hub.baseURL + "/hub", hub.topic], "\(recorded)")
        let seen = try hub.verified(within: 15)
        let subscription = try #require(seen, "rss-serve subscribed and answered the verification: \(serve.logText)")
        let callback = try #require(subscription["callback"] as? String)
        #expect(callback.hasPrefix("http://127.0.0.1:\(port)/websub/") && (subscription["secret"] as? String)?.count == 64)
        var status = stat()
        #expect(stat(data + "/websub.sqlite", &status) == 0 && status.st_mode & 0o777 == 0o600, "the secrets' file is 0600")

        let reader = try EventReader(serve.baseURL + "/events?feeds=1", in: root.url.path)
        #expect(reader.wait { $0.contains { $0.kind == "entry" } }, "\(reader.text)")

        // Refused, every one, and nothing of them kept.
        let forged = Self.feedXML(hub: hub, entries: ["forged-1"])
        let refusals: [(String, [String], String)] = [
            ("forged", ["-H", "X-Hub-Signature: sha256=" + String(repeating: "0", count: 64)], "403"),
            ("unsigned", [], "403"),
            ("sha1", ["-H", "X-Hub-Signature: sha1=" + String(repeating: "0", count: 40)], "403"),
        ]
        for (name, headers, expected) in refusals {
            let answer = try curl(["-X", "POST", "-H", "Content-Type: application/atom+xml", "--data-binary", forged] + headers + [callback])
            #expect(answer.head.hasPrefix("HTTP/1.1 \(expected)"), "\(name): \(answer.head)")
        }
        let large = root.url.path + "/large.xml"
        try Data(repeating: UInt8(ascii: "a"), count: 2 << 20).write(to: URL(fileURLWithPath: large))
        let oversized = try curl(["-X", "POST", "--data-binary", "@" + large, "-H", "X-Hub-Signature: sha256=00", callback])
        #expect(oversized.head.hasPrefix("HTTP/1.1 413"), "\(oversized.head)")
        let unknown = "http://127.0.0.1:\(port)/websub/" + String(repeating: "ab", count: 32)
        #expect(try curl(["-X", "POST", "--data-binary", forged, unknown]).head.hasPrefix("HTTP/1.1 404"))
        // Verifications rss-serve did not ask for: another topic, an unsubscription, a stranger's callback.
        let challenge = "hub.challenge=x123"
        #expect(try curl([callback + "?hub.mode=subscribe&hub.topic=http%3A%2F%2Fevil.example%2F&" + challenge]).head.hasPrefix("HTTP/1.1 404"))
        #expect(try curl([callback + "?hub.mode=unsubscribe&hub.topic=" + HubClient.formEncoded(hub.topic) + "&" + challenge]).head.hasPrefix("HTTP/1.1 404"))
        #expect(try curl([unknown + "?hub.mode=subscribe&hub.topic=" + HubClient.formEncoded(hub.topic) + "&" + challenge]).head.hasPrefix("HTTP/1.1 404"))

        // The hub's signed push: stored, published, and at the reader within seconds.
        let pushed = Date()
        #expect(try hub.publish(["first", "pushed-1"]) == [202])
        #expect(reader.wait(seconds: 10) { $0.contains { $0.kind == "patch" } }, "\(reader.text)\n\(serve.logText)")
        let seconds = Date().timeIntervalSince(pushed)
        #expect(seconds < 5, "push to event in \(seconds) s")
        let patch = try #require(reader.events.first { $0.kind == "patch" })
        let titles = (patch.data["patch"] as? [[String: Any]] ?? []).compactMap { ($0["value"] as? [String: Any])?["title"] as? String }
        #expect(titles == ["pushed-1"], "\(patch.data)")
        let stored = try sqlite(data + "/feed_1.sqlite", "SELECT title FROM items ORDER BY title").map { $0.first ?? nil }
        #expect(stored == ["first", "pushed-1"], "nothing forged stored: \(stored)")
        #expect(!reader.text.contains("forged"), "nothing forged published")

        // rss-update still runs beside rss-serve (the lock was let go), and the metrics say what happened.
        #expect(try Executable(name: "rss-update").runCapturing(["--all"] + options).status == 0)
        let metrics = try curl([serve.baseURL + "/metrics"]).body
        for line in [
            "feedmill_serve_websub_subscriptions{state=\"active\"} 1", "feedmill_serve_websub_pushes_total{result=\"stored\"} 1",
            "feedmill_serve_websub_pushes_total{result=\"forged\"} 2", "feedmill_serve_websub_pushes_total{result=\"unsigned\"} 1",
            "feedmill_serve_websub_pushes_total{result=\"oversized\"} 1", "feedmill_serve_websub_pushes_total{result=\"unknown_callback\"} 1",
            "feedmill_serve_push_to_event_seconds_count 1", "feedmill_serve_connections 1",
        ] {
            #expect(metrics.contains(line + "\n"), "\(line)\n\(metrics)")
        }
        #expect(serve.stop().status == 0)
    }

    /// An I/O error while a push is stored (the feed database's first write fails, once):
    /// the push is said not stored, nothing of it is published, the file is intact, rss-serve
    /// carries on, and the hub's next push brings the lost item with the new one; a plain
    /// rss-update afterwards runs clean.
    @Test func aPushWhoseStoreFailsLosesNothingAndTheNextOneArrives() throws {
        let shim = try FaultShim.library.get()
        // The feed's database: its first write by rss-serve fails (EIO), once.
        let subscribed = try Subscribed { data in
            ["LD_PRELOAD": shim, "FEEDMILL_FAULT_UNDER": data + "/feed_1.sqlite", "FEEDMILL_FAULT_CALLS": "write", "FEEDMILL_FAULT_AT": "1",
             "FEEDMILL_FAULT_ERRNO": "5"]
        }
        let serve = subscribed.serve
        #expect(try subscribed.hub.verified(within: 15) != nil, "\(serve.logText)")
        let reader = try EventReader(serve.baseURL + "/events?feeds=1", in: subscribed.root.url.path)
        #expect(reader.wait { $0.contains { $0.kind == "entry" } }, "\(reader.text)")

        #expect(try subscribed.hub.publish(["first", "lost-1"]) == [202])
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !serve.logText.contains("push not stored") { usleep(100_000) }
        #expect(serve.logText.contains("push not stored") && serve.logText.contains("Input/output error"), "\(serve.logText)")
        usleep(700_000)
        #expect(!reader.events.contains { $0.kind == "patch" }, "nothing of a failed push published: \(reader.text)")
        let feed = subscribed.data + "/feed_1.sqlite"
        #expect(try sqlite(feed, "PRAGMA integrity_check").first?.first == "ok")
        #expect(try sqlite(feed, "SELECT title FROM items").map { $0.first ?? nil } == ["first"])

        #expect(try subscribed.hub.publish(["first", "lost-1", "second"]) == [202])
        #expect(reader.wait(seconds: 10) { $0.contains { $0.kind == "patch" } }, "\(reader.text)\n\(serve.logText)")
        let titles = (reader.events.first { $0.kind == "patch" }?.data["patch"] as? [[String: Any]] ?? [])
            .compactMap { ($0["value"] as? [String: Any])?["title"] as? String }.sorted()
        #expect(titles == ["lost-1", "second"], "\(titles)")
        #expect(serve.stop().status == 0)
        #expect(try Executable(name: "rss-update").runCapturing(["--all"] + subscribed.options).status == 0)
        #expect(try sqlite(feed, "SELECT title FROM items ORDER BY title").map { $0.first ?? nil } == ["first", "lost-1", "second"])
    }

    /// A push answered 202 while an rss-update run holds the data directory's lock, then
    /// SIGTERM: rss-serve stops only once the push is stored (the lock let go a second later),
    /// not with it lost.
    @Test func aPushTakenBeforeSIGTERMIsStoredBeforeTheProcessEnds() throws {
        let subscribed = try Subscribed()
        let serve = subscribed.serve
        #expect(try subscribed.hub.verified(within: 15) != nil, "\(serve.logText)")
        var held: RunLock? = try RunLock(directory: subscribed.data)
        #expect(try subscribed.hub.publish(["first", "before-stop"]) == [202])
        kill(serve.process.processIdentifier, SIGTERM)
        usleep(1_000_000)
        #expect(serve.process.isRunning, "the stop waits for the push taken: \(serve.logText)")
        held = nil
        withExtendedLifetime(held) {}
        serve.process.waitUntilExit()
        #expect(serve.process.terminationStatus == 0, "\(serve.logText)")
        let titles = try sqlite(subscribed.data + "/feed_1.sqlite", "SELECT title FROM items ORDER BY title").map { $0.first ?? nil }
        #expect(titles == ["before-stop", "first"], "\(titles)\n\(serve.logText)")
    }

    static func feedXML(hub: WebSubHubProcess, entries: [String]) -> String {
        let items = entries.map { "<entry><id>urn:test:\($0)</id><title>\($0)</title><updated>2026-12-01T00:00:00Z</updated></entry>" }
        return "<feed xmlns='http://www.w3.org/2005/Atom'><title>Pushed</title><id>urn:test:feed</id>\(items.joined())</feed>"
    }
}

@Suite("WebSub: the signature and the subscription rules")
struct WebSubRuleTests {
    let secret = "s3cret"
    let body = Array("<feed/>".utf8)

    func signature(_ bits: Int) -> String {
        "sha\(bits)=" + SHA256.hex(HMAC.mac(bits: bits, key: Array(secret.utf8), message: body)!)
    }

    @Test func onlyAMatchingSHA2SignatureIsValid() {
        for bits in [256, 384, 512] {
            #expect(WebSubCallback.check(signature: signature(bits), body: body, secret: secret) == .valid)
            #expect(WebSubCallback.check(signature: signature(bits).uppercased(), body: body, secret: secret) == .valid, "hex in either case")
            #expect(WebSubCallback.check(signature: signature(bits), body: body + [0x20], secret: secret) != .valid, "another body")
            #expect(WebSubCallback.check(signature: signature(bits), body: body, secret: secret + "x") != .valid, "another secret")
        }
        #expect(WebSubCallback.check(signature: nil, body: body, secret: secret) == .missing)
        for refused in ["sha1=" + String(repeating: "0", count: 40), "sha256", "sha256=zz", "md5=00", "sha256=", "=00", "sha256=0"] {
            #expect(WebSubCallback.check(signature: refused, body: body, secret: secret) != .valid, "\(refused)")
        }
        // RFC 4231 test case 2.
        let mac = HMAC.mac(bits: 256, key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(mac.map(SHA256.hex) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func aLeaseAcceptsPushesOnlyWhileItRuns() {
        var subscription = Subscription(
            feedID: 1, hub: "h", topic: "t", callback: Subscription.randomToken(), secret: Subscription.randomToken(),
            state: .requested, leaseUntil: nil, requestedAt: 100)
        #expect(subscription.callback.count == 64 && subscription.callback != subscription.secret)
        #expect(!subscription.accepts(at: 100), "not before verification")
        subscription.state = .active
        subscription.leaseUntil = 200
        #expect(subscription.accepts(at: 199) && !subscription.accepts(at: 200))
        subscription.state = .unsubscribing
        #expect(!subscription.accepts(at: 150))
    }

    /// When the subscriber asks a hub again, and with what: a lease far from its end is left
    /// alone; one near it is renewed with the same callback and secret; a request left
    /// unverified is asked again after the wait; a feed that moved to another hub has its old
    /// subscription ended before the new one is asked, never both under one row.
    @Test func renewalsRetriesAndAMovedHub() throws {
        let directory = try TemporaryDirectory()
        var pipeline = PipelineConfiguration()
        pipeline.dataDirectory = directory.url.path
        pipeline.fetch.totalTimeout = 2
        let settings = WebSubSettings(publicURL: "https://feeds.example/", pipeline: pipeline, publish: PublishConfiguration())
        #expect(settings.callbackURL("ab") == "https://feeds.example/websub/ab")
        let store = try SubscriptionStore(dataDirectory: directory.url.path)
        let subscriber = WebSubSubscriber(settings: settings, store: store, logger: Logger(label: "test"), metrics: ServeMetrics())
        // Hubs nothing listens at: the requests fail at once, as a hub that is down does.
        let feed = AdvertisedHubs.Feed(feedID: 7, hub: "http://127.0.0.1:9/hub", topic: "http://127.0.0.1:9/feed")
        let now: Int64 = 1_000_000
        let first = try #require(subscriber.due(feed, nil, now: now))
        #expect(first.state == .requested && first.callback.count == 64 && first.secret.count == 64)
        try store.save(first)

        var active = first
        (active.state, active.leaseUntil) = (.active, now + 864_000)
        #expect(subscriber.due(feed, active, now: now + 1_000) == nil, "a lease far from its end")
        let renewal = try #require(subscriber.due(feed, active, now: now + 864_000 - 3_600))
        #expect(renewal.callback == first.callback && renewal.secret == first.secret && renewal.state == .active)

        #expect(subscriber.due(feed, first, now: now + 60) == nil, "a request waits for its verification")
        let retried = try #require(subscriber.due(feed, first, now: now + 301))
        #expect(retried.callback == first.callback && retried.requestedAt == now + 301)

        var denied = first
        denied.state = .denied
        #expect(subscriber.due(feed, denied, now: now + 3_600) == nil && subscriber.due(feed, denied, now: now + 86_401) != nil)

        let moved = AdvertisedHubs.Feed(feedID: 7, hub: "http://127.0.0.1:9/other-hub", topic: feed.topic)
        #expect(subscriber.due(moved, active, now: now + 10) == nil, "the old subscription is ended first")
        let ending = try #require(try store.subscription(callback: first.callback))
        #expect(ending.state == .unsubscribing)
        #expect(subscriber.due(moved, ending, now: now + 20) == nil)
        let next = try #require(subscriber.due(moved, ending, now: now + 10 + 301))
        #expect(next.hub == moved.hub && next.callback != first.callback && next.secret != first.secret)
        #expect(try store.subscription(callback: first.callback) == nil, "the old row went before the new one")
    }

    /// Pushes wait for the data directory's lock (an rss-update run holds it) in a bounded
    /// line: past the limit one is refused (the hub retries a 503), and once the line moves
    /// the next is taken again.
    @Test func pushesWaitingForTheLockAreBounded() async throws {
        let directory = try TemporaryDirectory()
        FileManager.default.createFile(atPath: directory.url.path + "/all_feeds.sqlite", contents: nil)
        let held = try RunLock(directory: directory.url.path)
        var pipeline = PipelineConfiguration()
        pipeline.dataDirectory = directory.url.path
        var settings = WebSubSettings(publicURL: "https://feeds.example", pipeline: pipeline, publish: PublishConfiguration())
        settings.lockWait = .seconds(2)
        let applier = PushApplier(settings: settings, metrics: ServeMetrics(), logger: Logger(label: "test"), pendingLimit: 2)
        let push = PushApplier.Push(feedID: 1, body: Array("<rss/>".utf8), contentType: nil, received: .now)
        #expect(applier.enqueue(push) && applier.enqueue(push), "two wait")
        #expect(!applier.enqueue(push), "the third is refused while they wait")
        withExtendedLifetime(held) {}
        await applier.drain()
        #expect(applier.enqueue(push), "taken again once the line has moved")
        await applier.drain()
    }
}
