import FeedBasics
import FeedModel

/// Bytes in, ``ParsedFeed`` out: the one entry point for every format.
///
/// No network, no database, no clock. The format is sniffed from the content (a `{` means
/// JSON Feed; otherwise the XML root element decides), never taken from a URL or a
/// Content-Type, which are wrong often enough in the wild.
public enum FeedParser {
    /// - Parameters:
    ///   - data: the document as received.
    ///   - charset: the transport's charset (`Content-Type: …; charset=`), if any.
    ///   - limits: depth and size bounds.
    public static func parse(
        _ data: [UInt8], charset: String? = nil, limits: ParserLimits = .default
    ) throws -> ParsedFeed {
        let decoded = CharacterEncoding.decode(data, transportCharset: charset)
        guard let first = decoded.utf8.first(where: { !$0.isASCIIWhitespace }) else {
            throw FeedParseError.empty
        }
        var feed: ParsedFeed
        if first == UInt8(ascii: "{") {
            feed = try JSONFeedParser.parse(utf8: decoded.utf8)
        } else if first == UInt8(ascii: "<") {
            if looksLikeHTML(decoded.utf8) {
                // A feed wrapped in an XHTML page is still a feed; any other page is not.
                guard embedsFeed(decoded.utf8), let wrapped = try? XMLFeedParser.parse(utf8: decoded.utf8, limits: limits) else {
                    throw FeedParseError.notAFeed(found: "an HTML page")
                }
                feed = wrapped
            } else {
                feed = try XMLFeedParser.parse(utf8: decoded.utf8, limits: limits)
            }
        } else {
            throw FeedParseError.unreadable(line: 1, column: 1, reason: "starts with neither '<' nor '{'")
        }
        feed.encoding = decoded.name
        feed.diagnostics.insert(contentsOf: decoded.notes, at: 0)
        return feed
    }

    /// An element that can only be a feed's root: `<feed`, `<rss` or `<rdf:RDF`.
    static func embedsFeed(_ utf8: [UInt8]) -> Bool {
        for marker in ["<feed", "<rss", "<rdf:RDF"].map({ Array($0.utf8) }) {
            var index = 0
            while let hit = utf8[index...].firstIndex(of: UInt8(ascii: "<")) {
                if utf8[hit...].starts(with: marker), hit + marker.count < utf8.count,
                    [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">")].contains(utf8[hit + marker.count])
                {
                    return true
                }
                index = hit + 1
            }
        }
        return false
    }

    /// `<!doctype html` (any case; HTML5's lowercase form is not XML, and libxml2 stops at it
    /// before any root element) or `<html` as the first markup.
    static func looksLikeHTML(_ utf8: [UInt8]) -> Bool {
        let start = utf8.firstIndex { !$0.isASCIIWhitespace } ?? 0
        let head = String(decoding: utf8[start...].prefix(64), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }
}
