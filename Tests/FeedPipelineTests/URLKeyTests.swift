@testable import FeedModel
import TestSupport
import Testing

@Suite("URL keys")
struct URLKeyTests {
    /// The shortcut for URLs already in normal form gives what the full normalisation gives.
    @Test func aURLAlreadyInNormalFormIsItsOwnKeyAndNoOtherIs() {
        var random = SeededGenerator(seed: 38)
        // Structured URLs, many of them already normal, and soups of pieces, which found the
        // shortcut's first mistakes (an authority of colons).
        let schemes = ["http://", "https://", "HTTP://", "https:/"]
        let hosts = ["example.com", "Example.COM", "a-b_c.example", "[::1]", "user@example.com", "", "xn--bcher-kva.example", "é.example"]
        let ports = ["", ":80", ":443", ":8080", ":", ":8a"]
        let paths = ["", "/", "/feed", "/a/B", "/f%65ed", "/x#frag", "/ sp", "/é"]
        let queries = ["", "?q=1", "?"]
        let pieces = ["http://", "https://", "example.com", ":80", ":443", ":", "/", "?q=1", "#x", "%41", " ", "é", "user@", "[::1]", "/a/B"]
        var shortcuts = 0
        for round in 0..<20_000 {
            let url = round % 2 == 0
                ? [schemes, hosts, ports, paths, queries].map { $0.randomElement(using: &random) ?? "" }.joined()
                : (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            if FeedURLKey.isNormal(url) { shortcuts += 1 }
            #expect(FeedURLKey.key(url) == FeedURLKey.normalized(url), "\(url)")
        }
        #expect(shortcuts > 300, "the shortcut is taken often enough to be tested: \(shortcuts)")
    }
}
