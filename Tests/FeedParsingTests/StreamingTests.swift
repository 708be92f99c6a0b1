import FeedModel
import Foundation
import TestSupport
import Testing

@testable import FeedParsing

/// A feed read as its bytes arrive must be exactly the feed read at once, wherever the chunks
/// are cut: in the middle of a character, a reference, a CDATA terminator, the prolog.
@Suite("Streaming: chunk boundaries change nothing")
struct StreamingTests {
    /// Reads `bytes` through ``FeedStreamParser`` in chunks of the given sizes (cycled).
    static func streamed(_ bytes: [UInt8], chunks: [Int], charset: String? = nil) -> Result<ParsedFeed, FeedParseError> {
        var sizes: [Int] = []
        var offset = 0
        while offset < bytes.count {
            sizes.append(min(chunks[sizes.count % chunks.count], bytes.count - offset))
            offset += sizes.last!
        }
        return streamedExact(bytes, sizes: sizes, charset: charset)
    }

    /// Reads `bytes` through ``FeedStreamParser`` in chunks of exactly these sizes.
    static func streamedExact(_ bytes: [UInt8], sizes: [Int], charset: String?) -> Result<ParsedFeed, FeedParseError> {
        var entries: [ParsedEntry] = []
        let parser = FeedStreamParser(charset: charset) { entry, _ in entries.append(entry) }
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            for size in sizes {
                parser.append(UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + size)]))
                offset += size
            }
        }
        do {
            var feed = try parser.finish()
            feed.entries = entries
            return .success(feed)
        } catch {
            return .failure(error)
        }
    }

    static func whole(_ bytes: [UInt8], charset: String? = nil) -> Result<ParsedFeed, FeedParseError> {
        Result { () throws(FeedParseError) in try FeedParser.parse(bytes, charset: charset) }
    }

    static let examples: [String] = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/feeds").standardized
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted().map { directory.appendingPathComponent($0).path }
    }()

    /// Documents built to put every construct that is held back across a boundary.
    static let hostile: [(name: String, bytes: [UInt8])] = {
        let item = """
            <item><title>caf\u{E9} &amp; cr\u{E8}me &eacute;t&eacute; &#x2014; &#151; &#X41; &bogus; a < b <3</title>
            <description><![CDATA[<p>one ]] two ]]] three</p>]]></description>
            <!-- a comment -- with -> inside --><guid>g-\u{1F600}</guid>
            <link>https://example.com/&amp;x=1&y=2</link><author>&declared;</author></item>
            """
        let doctype = "<!DOCTYPE rss [<!ENTITY declared \"Declared &#169; Name\">]>"
        let rss = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\(doctype)<rss version=\"2.0\"><channel><title>T</title>"
            + String(repeating: item, count: 40) + "</channel></rss>"
        var latin1: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel>".utf8)
        for index in 0..<300 { latin1 += Array("<item><title>n\(index) caf".utf8) + [0xE9, 0x93, 0x94] + Array("</title></item>".utf8) }
        latin1 += Array("</channel></rss>".utf8)
        // Valid UTF-8 first, then a byte that is not: a mixed document.
        var mixed: [UInt8] = Array("<rss><channel><item><title>caf\u{E9}</title></item>".utf8)
        mixed += Array(String(repeating: "<item><title>x</title></item>", count: 200).utf8)
        mixed += Array("<item><title>caf".utf8) + [0xE9] + Array("</title></item></channel></rss>".utf8)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><title>\u{E9}\u{1F600}</title><id>x</id></entry></feed>".utf16 {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let koi8: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"KOI8-R\"?><rss><channel><item><title>".utf8)
            + [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4] + Array("</title></item></channel></rss>".utf8)
        let json = "{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"J\",\"items\":["
            + (0..<50).map { "{\"id\":\"\($0)\",\"title\":\"caf\u{E9} \($0)\",\"content_html\":\"<p>x</p>\"}" }.joined(separator: ",") + "]}"
        let unclosedCDATA = "<rss><channel><item><title>a</title><description><![CDATA[never closed " + String(repeating: "]", count: 70)
        let longCDATA = "<rss><channel><item><title>a</title><description><![CDATA[" + Self.longSectionText
            + "]]></description></item><item><title>b</title><description><![CDATA[" + Self.longSectionText + " unclosed"
        return [
            ("entities, CDATA, comments, a declared entity", Array(rss.utf8)),
            ("ISO-8859-1 label, windows-1252 bytes", latin1),
            ("UTF-8, then a stray Latin-1 byte", mixed),
            ("UTF-16 with a byte-order mark", utf16),
            ("KOI8-R", koi8),
            ("UTF-8 byte-order mark", [0xEF, 0xBB, 0xBF] + Array(rss.utf8)),
            ("JSON Feed", Array(json.utf8)),
            ("a CDATA section never closed", Array(unclosedCDATA.utf8)),
            ("CDATA sections split in pieces, one never closed", Array(longCDATA.utf8)),
            ("an HTML page", Array("<!doctype html><html><body><p>no feed</p></body></html>".utf8)),
            ("white space only", Array("   \n\t ".utf8)),
            ("neither XML nor JSON", Array("hello".utf8)),
        ]
    }()

    /// 100 KB of CDATA content with multi-byte characters and `]` everywhere, so that the
    /// pieces ``LexicalRepair`` cuts a long section into fall next to both.
    static let longSectionText: String = {
        var text = "<p>"
        while text.utf8.count < 100_000 { text += "caf\u{E9} ]] \u{1F600}] x]]" + String(text.utf8.count % 7) }
        return text + "</p>"
    }()

    /// A long section is cut into pieces libxml2 hands on as they arrive; its text is the
    /// section's, byte for byte, however the document arrives.
    @Test(arguments: [[1_000_000], [4096], [39, 41]])
    func aLongCDATASectionKeepsItsTextExactly(chunks: [Int]) throws {
        let document = "<rss><channel><item><title>a</title><description><![CDATA[" + Self.longSectionText
            + "]]></description></item></channel></rss>"
        var rewritten: [UInt8] = []
        var repair = LexicalRepair(declared: DeclaredEntities(document: []))
        _ = Array(document.utf8).withUnsafeBufferPointer { repair.repair($0, isLast: true, into: &rewritten) }
        #expect(String(decoding: rewritten, as: UTF8.self).components(separatedBy: "]]><![CDATA[").count >= 3, "the section is cut")
        let feed = try Self.streamed(Array(document.utf8), chunks: chunks).get()
        #expect(feed.entries.first?.summary?.value == Self.longSectionText)
    }

    @Test(arguments: [[1], [2], [3], [7], [39, 41], [64 * 1024], [5, 4096, 1, 300]])
    func hostileDocumentsReadTheSameInAnyChunks(chunks: [Int]) {
        for (name, bytes) in Self.hostile {
            #expect(Self.streamed(bytes, chunks: chunks) == Self.whole(bytes), "\(name), chunks of \(chunks)")
        }
    }

    @Test func theExampleFeedsReadTheSameInAnyChunks() throws {
        #expect(Self.examples.count >= 9)
        var generator = SeededGenerator.announced()
        for path in Self.examples {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for chunks in [[1], [13], [4096], [Int.random(in: 1...9000, using: &generator), Int.random(in: 1...50, using: &generator)]] {
                #expect(Self.streamed(bytes, chunks: chunks) == Self.whole(bytes), "\(path), chunks of \(chunks)")
            }
        }
    }

    /// Broken documents the fuzzer found, on which libxml2's recovery (its errors, and what it
    /// keeps) depended on where the chunks it was given ended, before it was given fixed slices.
    @Test func brokenDocumentsReadTheSameInAnyChunks() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/Findings").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("chunked-") }
        #expect(names.count == 3)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            // The fuzz target's chunking (sizes drawn from the bytes), then fixed ones.
            var sizes: [Int] = []
            var offset = 0
            while offset < bytes.count {
                sizes.append(min(Int(bytes[offset] & 63) + 1, bytes.count - offset))
                offset += sizes.last!
            }
            for charset in [nil, "iso-8859-1"] {
                #expect(Self.streamedExact(bytes, sizes: sizes, charset: charset) == Self.whole(bytes, charset: charset), "\(name)")
                #expect(Self.streamed(bytes, chunks: [7]) == Self.whole(bytes), "\(name)")
            }
        }
    }

    @Test func randomSoupReadsTheSameInRandomChunks() {
        let pieces = [
            "<rss><channel>", "<item>", "</item>", "<title>", "</title>", "&amp;", "&nbsp;", "&#233;", "&#x1F600;", "&", "<", " < ",
            "<![CDATA[", "]]>", "<!--", "-->", "é", "\u{1F600}", "text ", "<description>", "</description>", "<p>", "</channel></rss>",
        ]
        var generator = SeededGenerator.announced()
        for _ in 0..<300 {
            var document = "<rss><channel><item><title>"
            for _ in 0..<Int.random(in: 1...60, using: &generator) { document += pieces.randomElement(using: &generator)! }
            var bytes = Array(document.utf8)
            if Bool.random(using: &generator) { bytes.insert(UInt8.random(in: 0x80...0xFF, using: &generator), at: Int.random(in: 0...bytes.count)) }
            let chunks = (0..<3).map { _ in Int.random(in: 1...50, using: &generator) }
            #expect(Self.streamed(bytes, chunks: chunks) == Self.whole(bytes), "\(bytes) in chunks of \(chunks)")
        }
    }

    @Test func entriesArriveBeforeTheDocumentEnds() throws {
        let head = Array("<rss><channel><title>T</title><item><title>first</title></item>".utf8)
        var seen: [String] = []
        let parser = FeedStreamParser(charset: nil) { entry, feed in
            seen.append(entry.title?.value ?? "")
            #expect(feed.format == .rss)
        }
        head.withUnsafeBytes { parser.append($0) }
        // libxml2 is given the document in 64 KiB slices, each once a byte after it is in.
        Array(String(repeating: " ", count: 70_000).utf8).withUnsafeBytes { parser.append($0) }
        #expect(seen == ["first"])
        Array("<item><title>second</title></item></channel></rss>".utf8).withUnsafeBytes { parser.append($0) }
        #expect(try parser.finish().title?.value == "T")
        #expect(seen == ["first", "second"])
    }

    @Test func jsonFeedItemsArriveAsEachCompletes() throws {
        var seen: [String] = []
        let parser = FeedStreamParser(charset: nil) { entry, feed in
            seen.append(entry.nativeID ?? "")
            #expect(feed.format == .json)
        }
        let head = "{\"version\":\"https://jsonfeed.org/version/1.1\",\"items\":[{\"id\":\"a\",\"title\":\"} ] \\\" {\"},"
        Array((head + String(repeating: " ", count: 300)).utf8).withUnsafeBytes { parser.append($0) }
        #expect(seen == ["a"])
        Array("{\"id\":\"b\"}, 3, {\"id\":7}],\"title\":\"After\"}".utf8).withUnsafeBytes { parser.append($0) }
        let feed = try parser.finish()
        #expect(seen == ["a", "b", "7"])
        #expect(feed.title?.value == "After")
    }

    @Test func jsonThatBreaksHalfWayIsNoFeed() {
        let parser = FeedStreamParser(charset: nil) { _, _ in }
        let broken = "{\"version\":\"https://jsonfeed.org/version/1\",\"items\":[{\"id\":\"a\"},{\"id\": nope}]}"
        Array((broken + String(repeating: " ", count: 300)).utf8).withUnsafeBytes { parser.append($0) }
        #expect(parser.isStopped)
        #expect(throws: FeedParseError.self) { try parser.finish() }
    }

    @Test func aDocumentPastALimitStopsTheStream() {
        let parser = FeedStreamParser(charset: nil, limits: ParserLimits(maxDepth: 8)) { _, _ in }
        let deep = "<rss><channel><item><description>" + String(repeating: "<x>", count: 20)
        Array(deep.utf8).withUnsafeBytes { parser.append($0) }
        Array(String(repeating: " ", count: 70_000).utf8).withUnsafeBytes { parser.append($0) }
        #expect(parser.isStopped)
        #expect(throws: FeedParseError.tooDeep(limit: 8, line: 1)) { try parser.finish() }
    }

    @Test func aMixedDocumentKeepsItsUTF8AndReadsTheStrayBytesAsWindows1252() throws {
        // The encoding is decided on the 4 KiB from the first non-ASCII byte: valid UTF-8 there.
        let filler = String(repeating: "<item><title>plain</title></item>", count: 200)
        let bytes: [UInt8] = Array("<rss><channel><item><title>caf\u{E9}</title></item>\(filler)<item><title>".utf8)
            + [0x93, 0xE9, 0x94] + Array("</title></item></channel></rss>".utf8)
        let feed = try FeedParser.parse(bytes)
        #expect(feed.entries.first?.title?.value == "caf\u{E9}")
        #expect(feed.entries.last?.title?.value == "\u{201C}\u{E9}\u{201D}")
        #expect(feed.encoding == "UTF-8")
        #expect(feed.diagnostics.contains { $0.contains("3 byte(s) not valid UTF-8") })
    }

    @Test func bytesThatAreNotUTF8NearTheFirstNonASCIIByteDecideTheLabelsEncoding() throws {
        let bytes: [UInt8] = Array("<rss><channel><item><title>caf\u{E9} ".utf8) + [0x93, 0x94] + Array("</title></item></channel></rss>".utf8)
        let feed = try FeedParser.parse(bytes, charset: "iso-8859-1")
        #expect(feed.entries.first?.title?.value == "caf\u{C3}\u{A9} \u{201C}\u{201D}")
        #expect(feed.encoding == "windows-1252")
    }
}
