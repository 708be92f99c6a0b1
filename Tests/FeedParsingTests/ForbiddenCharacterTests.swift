import FeedModel
import Testing

@testable import FeedParsing

/// Issue 38: libxml2 gives up on the element around a raw NUL (and on everything after it), so
/// one stray byte lost the entry and every entry after it. Every character XML 1.0 forbids is
/// now removed before libxml2 sees it: the character goes, the entry and the rest of its text stay.
@Suite("A character XML forbids goes; its entry and the rest of its text stay")
struct ForbiddenCharacterTests {
    /// Two items; `inside` goes between `before` and `after` in the first one's description.
    static func rss(_ inside: [UInt8]) -> [UInt8] {
        Array("<rss version='2.0'><channel><title>T</title><item><guid>a</guid><title>One</title><description>before".utf8)
            + inside + Array("after</description></item><item><guid>b</guid><title>Two</title></item></channel></rss>".utf8)
    }

    @Test("each forbidden character is removed from an item's text", arguments: [
        ("NUL", [0x00], 1),
        ("SOH", [0x01], 1),
        ("BS", [0x08], 1),
        ("VT", [0x0B], 1),
        ("FF", [0x0C], 1),
        ("SO", [0x0E], 1),
        ("US", [0x1F], 1),
        ("U+FFFE", [0xEF, 0xBF, 0xBE], 1),
        ("U+FFFF", [0xEF, 0xBF, 0xBF], 1),
        ("three NULs", [0x00, 0x00, 0x00], 3),
    ] as [(String, [UInt8], Int)])
    func removedFromText(name: String, character: [UInt8], count: Int) throws {
        let feed = try FeedParser.parse(Self.rss(character))
        #expect(feed.entries.map(\.nativeID) == ["a", "b"], "\(name)")
        #expect(feed.entries.first?.summary?.value == "beforeafter", "\(name)")
        #expect(feed.entries.first?.title?.value == "One", "\(name)")
        #expect(feed.diagnostics.contains { $0.hasPrefix("\(count) character(s) XML does not allow") }, "\(name)")
    }

    @Test("tab, LF, CR and the characters next to the forbidden ones stay", arguments: [
        "\t", "\n", " ", "\u{7F}", "\u{80}", "\u{FFFD}", "\u{FF0C}", "\u{10FFFF}",
    ])
    func allowedStay(character: String) throws {
        let feed = try FeedParser.parse(Self.rss(Array(character.utf8)))
        #expect(feed.entries.first?.summary?.value == "before\(character)after")
        #expect(!feed.diagnostics.contains { $0.contains("XML does not allow") })
    }

    @Test("wherever it is in the document", arguments: [
        "<rss version='2.0'><channel><title>T\0</title><item><guid>a</guid><title>One</title></item><item><guid>b</guid></item></channel></rss>",
        "<rss version='2.0'><channel><title>T</title><item><guid>a\0</guid><title>One</title></item><item><guid>b</guid></item></channel></rss>",
        "<rss version='2.0'><channel><title>T</title><item><guid>a</guid><title>O\0ne</title></item><item><guid>b</guid></item></channel></rss>",
        "<rss version='2.0'><channel><title>T</title><item><guid>a</guid><title><![CDATA[O\0ne]]></title></item><item><guid>b</guid></item></channel></rss>",
        "<rss version='2.0'><channel><title>T</title><item><guid>a</guid><!-- \0 --><title>One</title></item><item><guid>b</guid></item></channel></rss>",
        "<rss version='2.0'><channel><title>T</title><item><guid>a</guid><ti\0tle>One</title></item><item><guid>b</guid></item></channel></rss>",
        "<rss version='2.0'><channel><title>T</title><item><guid isPermaLink='fa\0lse'>a</guid><title>One</title></item><item><guid>b</guid></item></channel></rss>",
        "\0<rss version='2.0'><channel><title>T</title><item><guid>a</guid><title>One</title></item><item><guid>b</guid></item></channel></rss>",
    ])
    func anywhere(document: String) throws {
        let feed = try parse(document)
        #expect(feed.title?.value == "T")
        #expect(feed.entries.map(\.nativeID) == ["a", "b"])
        #expect(feed.entries.first?.title?.value == "One")
    }

    @Test func anAtomLinkKeepsItsAddress() throws {
        let feed = try parse("<feed xmlns='http://www.w3.org/2005/Atom'><entry><id>x</id><link href='https://e.com/a\u{1}b'/></entry></feed>")
        #expect(feed.entries.first?.links.map(\.href) == ["https://e.com/ab"])
    }

    @Test("in every encoding", arguments: ["UTF-8", "windows-1252", "UTF-16LE", "UTF-8 with BOM"])
    func inEveryEncoding(encoding: String) throws {
        let text = "<rss version='2.0'><channel><item><guid>a</guid><description>caf\u{E9}\0 au lait</description></item><item><guid>b</guid></item></channel></rss>"
        let bytes: [UInt8]
        switch encoding {
        case "windows-1252": bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        case "UTF-16LE": bytes = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        case "UTF-8 with BOM": bytes = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        default: bytes = Array(text.utf8)
        }
        let feed = try FeedParser.parse(bytes)
        #expect(feed.entries.map(\.nativeID) == ["a", "b"])
        #expect(feed.entries.first?.summary?.value == "café au lait")
    }

    @Test("a reference to a forbidden character is removed too", arguments: [
        ("&#0;", ""), ("&#x1;", ""), ("&#31;", ""), ("&#xFFFE;", ""), ("&#65535;", ""), ("&#xD800;", ""), ("&#x110000;", ""),
        ("&#9;", "\t"), ("&#xFFFD;", "\u{FFFD}"), ("&#x10FFFF;", "\u{10FFFF}"), ("&#150;", "–"),
    ])
    func references(reference: String, expected: String) throws {
        let feed = try FeedParser.parse(Self.rss(Array(reference.utf8)))
        #expect(feed.entries.map(\.nativeID) == ["a", "b"])
        #expect(feed.entries.first?.summary?.value == "before\(expected)after")
    }

    @Test func theResultDoesNotDependOnWhereChunksAreCut() throws {
        let bytes = Self.rss([0x00, 0xEF, 0xBF, 0xBF, 0x01]) + Array(" ".utf8)
        let whole = try FeedParser.parse(bytes)
        for size in [1, 2, 3, 5, 64] {
            let streamed = try StreamingTests.streamed(bytes, chunks: [size]).get()
            #expect(streamed.entries.map(\.summary?.value) == whole.entries.map(\.summary?.value), "chunks of \(size)")
        }
    }
}
