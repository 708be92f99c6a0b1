import FeedModel
import Foundation
import Testing

@testable import FeedParsing

@Suite("Safe by construction")
struct SafetyTests {
    @Test func anExternalEntityIsNeverRead() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("feedmill-xxe-\(UUID().uuidString)")
        try "TOP-SECRET-CONTENT".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let documents = [
            "<!DOCTYPE rss [<!ENTITY xxe SYSTEM \"file://\(secret.path)\">]><rss><channel><item><title>&xxe;</title></item></channel></rss>",
            "<!DOCTYPE rss [<!ENTITY % p SYSTEM \"file://\(secret.path)\"> %p;]><rss><channel><item><title>x</title></item></channel></rss>",
            "<!DOCTYPE rss SYSTEM \"file://\(secret.path)\"><rss><channel><item><title>x</title></item></channel></rss>",
            "<!DOCTYPE rss [<!ENTITY passwd SYSTEM \"file:///etc/passwd\">]><rss><channel><item><title>&passwd;</title></item></channel></rss>",
        ]
        for document in documents {
            let feed = try parse(document)
            let title = feed.entries.first?.title?.value ?? ""
            #expect(!title.contains("TOP-SECRET"))
            #expect(!title.contains("root:"))
        }
    }

    @Test func billionLaughsIsHarmlessAndQuick() throws {
        var document = "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            document += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        document += "]><rss><channel><item><title>&lol9;</title></item></channel></rss>"
        let clock = ContinuousClock()
        var feed: ParsedFeed?
        let elapsed = clock.measure { feed = try? parse(document) }
        // Declared entities are never expanded: the reference is shown as written.
        #expect(feed?.entries.first?.title?.value == "&lol9;")
        #expect(elapsed < .seconds(2), "bounded: no expansion happens at all")
    }

    @Test func nestingBeyondTheLimitIsAClearError() {
        let depth = 300
        let document = "<rss><channel><item><description>" + String(repeating: "<div>", count: depth) + "x"
            + String(repeating: "</div>", count: depth) + "</description></item></channel></rss>"
        #expect(throws: FeedParseError.tooDeep(limit: 128, line: 1)) { try parse(document) }
    }

    @Test func aTextNodeBeyondTheLimitIsAClearError() {
        let limits = ParserLimits(maxTextBytes: 1000)
        let document = "<rss><channel><item><description>" + String(repeating: "a", count: 5000)
            + "</description></item></channel></rss>"
        #expect(throws: FeedParseError.textTooLarge(element: "description", limit: 1000, line: 1)) {
            try parse(document, limits: limits)
        }
    }

    @Test func textWithinTheLimitIsKeptWhole() throws {
        let body = String(repeating: "b", count: 200_000)
        let feed = try parse("<rss><channel><item><description>\(body)</description></item></channel></rss>")
        #expect(feed.entries.first?.summary?.value == body)
    }
}
