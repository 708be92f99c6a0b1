import FeedModel
import Foundation
import TestSupport
import Testing

@testable import FeedParsing

/// The edges of issue 40 as the parser reads them, one fixture each (Fixtures/, named by what
/// they show; docs/fidelity.md says why each reads as it does).
@Suite("Edges read right: unknown types, mixed and wide encodings, UserLand RSS, links")
struct EdgeReadingTests {
    private func feed(_ name: String, charset: String? = nil) throws -> ParsedFeed {
        try FeedParser.parse(try fixture(name), charset: charset)
    }

    // MARK: Atom text with a MIME type that is neither text nor XML

    @Test func atomTextTypedWithAnUnknownMIMETypeIsReadAsWrittenUnlessItIsBase64OfText() throws {
        let parsed = try feed("atom10-unknown-type-text.xml")
        #expect(parsed.title?.value == "Typed by mistake")
        #expect(parsed.entries.map { $0.title?.value } == ["Hello, world", "Test", "Base64 title"])
        #expect(parsed.entries[0].summary?.value == "A summary, in plain words.")
        #expect(parsed.entries[1].content?.value == "Content that is no base64 at all.")
        #expect(parsed.entries[2].content?.value == "Base64 content")
        #expect(parsed.entries.allSatisfy { $0.title?.kind == .text })
    }

    @Test func atom03SaysBase64OnlyWithMode() throws {
        let encoded = Data("Words".utf8).base64EncodedString()
        let parsed = try parse("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><id>a</id>
            <title type="application/octet-stream">\(encoded)</title>
            <content type="application/octet-stream">\(encoded)</content></entry></feed>
            """)
        #expect(parsed.entries.first?.title?.value == encoded)
        #expect(parsed.entries.first?.content?.value == encoded)
    }

    // MARK: Encodings

    @Test func aLatin1FeedWithUTF8ItemsReadsBothParts() throws {
        let parsed = try feed("rss20-latin1-declared-utf8-items.xml")
        #expect(parsed.title?.value == "Le Café des Arts")
        #expect(parsed.entries.map { $0.title?.value } == ["Crème brûlée — la recette", "Naïve “quotes” déjà vu"])
        #expect(parsed.entries.first?.summary?.value == "Œufs, crème, sucre… et patience. Привет!")
        #expect(parsed.encoding == "UTF-8")
    }

    @Test func theSameFeedLabelledByTheTransportReadsTheSame() throws {
        let parsed = try feed("rss20-latin1-declared-utf8-items.xml", charset: "iso-8859-1")
        #expect(parsed.title?.value == "Le Café des Arts")
        #expect(parsed.entries.first?.title?.value == "Crème brûlée — la recette")
    }

    @Test func aGenuineWindows1252FeedStaysWindows1252WhereBytePairsLookLikeUTF8() throws {
        let parsed = try feed("rss20-windows1252-german.xml")
        #expect(parsed.encoding == "windows-1252")
        #expect(parsed.title?.value == "Grüße aus München")
        #expect(parsed.entries.first?.title?.value == "„Viele Grüß“ und schöne Äpfel")
        #expect(parsed.entries.first?.summary?.value == "Straße, Fuß–ball, über ähnliche Größen")
    }

    @Test func mixedReadingDoesNotDependOnHowTheBytesArrive() throws {
        let bytes = try fixture("rss20-latin1-declared-utf8-items.xml")
        let whole = CharacterEncoding.decode(bytes)
        var generator = SeededGenerator.announced()
        for _ in 0..<20 {
            var decoder = StreamingDecoder(transportCharset: nil)
            var output: [UInt8] = []
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...64, using: &generator))
                bytes[start..<end].withUnsafeBytes { decoder.decode($0, isLast: end == bytes.count, into: &output) }
                start = end
            }
            #expect(output == whole.utf8)
            #expect(decoder.name == whole.name)
        }
    }

    @Test(arguments: ["utf32be-no-bom.xml", "utf32le-no-bom.xml"])
    func utf32WithoutAByteOrderMarkIsDetected(name: String) throws {
        let parsed = try feed(name)
        #expect(parsed.encoding == (name.hasPrefix("utf32be") ? "UTF-32BE" : "UTF-32LE"))
        #expect(parsed.title?.value == "Wide feed")
        #expect(parsed.entries.first?.title?.value == "Grüße, 日本, 🎉")
    }

    @Test func theBytesOfAWideEncodingWinOverALabelWithoutByteOrder() throws {
        // glibc reads a "UTF-32" label without a byte-order mark as big-endian.
        let parsed = try feed("utf32le-no-bom.xml", charset: "UTF-32")
        #expect(parsed.entries.first?.title?.value == "Grüße, 日本, 🎉")
    }

    // MARK: Vocabulary

    @Test(arguments: ["rss-userland-namespace.xml", "rss21-userland-namespace.xml"])
    func rssInAUserLandNamespaceIsRSS(name: String) throws {
        let parsed = try feed(name)
        #expect(parsed.format == .rss)
        #expect(parsed.title?.value == "UserLand namespace")
        #expect(parsed.siteLink?.href == "https://userland.example/")
        #expect(parsed.entries.first?.itemLink?.href == "https://userland.example/2004/01/01")
        #expect(parsed.entries.first?.published == 1_072_958_400)
    }

    @Test func anotherNamespaceOnTheUserLandHostIsNotRSS() throws {
        #expect(throws: FeedParseError.self) {
            try parse("<rss xmlns=\"http://backend.userland.com/blogChannelModule\"><channel><title>x</title></channel></rss>")
        }
    }

    // MARK: Links

    @Test func anAtomLinkWrittenAsTextIsItsHref() throws {
        let parsed = try feed("atom03-link-as-text.xml")
        #expect(parsed.links.map(\.href) == ["https://text-links.example/"])
        #expect(parsed.links.first?.rel == "alternate")
        #expect(parsed.entries.map { $0.links.map(\.href) } == [["https://text-links.example/2004/03/first"], ["2004/03/second"]])
        #expect(parsed.entries.first?.links.first?.type == "text/html")
    }

    @Test func anRSSItemKeepsItsFirstTextLinkAndReadsHrefLinksByRel() throws {
        let parsed = try feed("rss20-item-several-links.xml")
        #expect(parsed.entries.map { $0.itemLink?.href } == [
            "https://links.example/markets/2022/11/10/panic/?utm_medium=referral&utm_source=rss",
            "https://links.example/first",
        ])
        #expect(parsed.entries.first?.links.map(\.rel) == ["self", "hub"])
    }
}
