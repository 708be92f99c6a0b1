@testable import FeedServing
import FeedBasics
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
    @Test func aSignedPushReachesAConnectedReaderAndForgeriesAreRefused() throws {
        let hub = try WebSubHubProcess()
        let root = try TemporaryDirectory()
        let (data, out) = (root.url.path + "/data", root.url.path + "/publish")
        let options = ["--data-dir", data, "--allow-private-networks"]
        #expect(try Executable(name: "rss-create").runCapturing(["--opml", hub.baseURL + "/list.opml"] + options).status == 0)
        #expect(try Executable(name: "rss-update").runCapturing(["--all"] + options).status == 0)
        // What the feed advertised, recorded by rss-update.
        let recorded = try sqlite(data + "/all_feeds.sqlite", "SELECT websub_hub, websub_topic FROM fetch_state WHERE feedid = 1")
        #expect(recorded.first == [hub.baseURL + "/hub", hub.topic], "\(recorded)")
        #expect(try Executable(name: "rss-publish").runCapturing(["--data-dir", data, "--out", out]).status == 0)

        let port = WebSubHubProcess.freePort()
        let serve = try ServeProcess(
            out: out, in: root.url.path, listen: "127.0.0.1:\(port)",
            extra: ["--data-dir", data, "--public-url", "http://127.0.0.1:\(port)/", "--allow-private-networks",
                    "--websub-check", "0.5", "--max-size", "1"])
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
}
