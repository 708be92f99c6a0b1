import TestSupport
import Testing

@testable import FeedNormalization

@Suite("URL resolution (RFC 3986 §5.4)")
struct URLResolverTests {
    static let base = "http://a/b/c/d;p?q"

    @Test("normal and abnormal examples", arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
        ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g"),
        ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
        ("./../g", "http://a/b/g"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/../y", "http://a/b/c/y"),
    ])
    func rfc3986(reference: String, expected: String) {
        #expect(URLResolver.resolve(reference, against: Self.base) == expected)
    }

    @Test func whiteSpaceIsTrimmedAndSpacesEncoded() {
        #expect(URLResolver.resolve("  my page.html\n", against: "https://e.com/a/") == "https://e.com/a/my%20page.html")
    }

    @Test func aRelativeReferenceWithoutABaseIsNotAbsolute() {
        #expect(URLResolver.resolve("/x", against: nil) == nil)
        #expect(URLResolver.resolve("/x", against: "relative/base") == nil)
        #expect(URLResolver.resolve("HTTPS://E.com/x", against: nil) == "https://E.com/x")
    }

    @Test func chainsApplyXMLBaseOutermostFirst() {
        let resolved = URLResolver.resolve("page.html", bases: ["http://a.example/x/", "y/", "z/"], documentBase: "http://feed.example/feed")
        #expect(resolved == "http://a.example/x/y/z/page.html")
        let relativeChain = URLResolver.resolve("p", bases: ["sub/"], documentBase: "http://feed.example/dir/feed.xml")
        #expect(relativeChain == "http://feed.example/dir/sub/p")
    }

    @Test("only http and https with a host are web URLs", arguments: [
        ("http://e.com/", true), ("https://e.com", true), ("HTTP://e.com/", true), ("ftp://e.com/", false),
        ("javascript:alert(1)", false), ("mailto:a@b", false), ("http:///x", false), ("tag:e.com,2004:1", false),
        ("/relative", false), ("hTTpS://e.com:8443/a?b#c", true), ("https://user:pw@e.com/", true), ("http://e.com?x", true),
        ("http://e.com#x", true), ("http://:80/", false), ("http://[::1]:80/", true), ("http://[::1/", false),
        ("http://e.c[o.test/", false), ("http://e.com\\x/", false), ("http://e .com/", false), ("http://e\u{1}.com/", false),
        ("http://a@@b/", true), ("http://user@/", true), ("http?x://e.com/", false), ("https:e.com", false), ("http:/e.com", false),
        ("https://", false), ("https://?q", false), ("http://é.example/", true), ("httpx://e.com/", false), ("http", false),
    ])
    func webURLs(url: String, expected: Bool) {
        #expect(URLResolver.isWebURL(url) == expected)
    }

    /// The fast path returns a URL as it is only when taking it apart and putting it back
    /// together would give the same string.
    @Test func theCanonicalFastPathAgreesWithTheFullResolution() {
        var generator = SeededGenerator.announced()
        let pieces = ["http", "HTTP", "https", "mailto", "a+b", ":", "//", "/", ".", "..", "./", "/./", "/../", "?", "#", "e.com", "x", "%2E", "@", "[::1]", "é", ""]
        var checked = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            guard URLResolver.isCanonicalAbsolute(text) else { continue }
            checked += 1
            #expect(URIComponents(text).withDotSegmentsRemoved().string == text, "\(text)")
        }
        #expect(checked > 100)
    }

    /// The fast path for `/path` references gives what RFC 3986 §5.2.2 does for them.
    @Test func thePlainAbsolutePathFastPathAgreesWithTheFullResolution() throws {
        var generator = SeededGenerator.announced()
        let pieces = ["/", "//", ".", "..", "./", "/./", "/../", "?", "#", "x", "a:b", "%2E", "@", "é", ""]
        let base = try #require(URLResolver.Base("https://e.com:8080/dir/page?q#f"))
        var checked = 0
        for _ in 0..<20_000 {
            let text = "/" + (0..<Int.random(in: 0...7, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            guard URLResolver.isPlainAbsolutePath(text) else { continue }
            checked += 1
            let target = URIComponents(text)
            var expected = URIComponents()
            expected.scheme = base.components.scheme
            expected.authority = base.components.authority
            expected.path = URLResolver.removeDotSegments(target.path)
            expected.query = target.query
            expected.fragment = target.fragment
            #expect(URLResolver.resolve(text, againstParsed: base) == expected.string, "\(text)")
        }
        #expect(checked > 100)
    }
}
