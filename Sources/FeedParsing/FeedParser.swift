import FeedModel

/// Bytes in, ``ParsedFeed`` out: the one entry point for a whole document in any format.
///
/// No network, no database, no clock. This is ``FeedStreamParser`` fed the document in one
/// go, with the entries collected: the rules are that type's, and the result is the same
/// however the same bytes would have arrived.
public enum FeedParser {
    /// - Parameters:
    ///   - data: the document as received.
    ///   - charset: the transport's charset (`Content-Type: …; charset=`), if any.
    ///   - limits: depth and size bounds.
    public static func parse(
        _ data: [UInt8], charset: String? = nil, limits: ParserLimits = .default
    ) throws(FeedParseError) -> ParsedFeed {
        let entries = EntryList()
        let parser = FeedStreamParser(charset: charset, limits: limits) { entry, _ in entries.items.append(entry) }
        data.withUnsafeBytes { parser.append($0) }
        var feed = try parser.finish()
        feed.entries = entries.items
        return feed
    }
}

/// The entries a whole-document parse collects.
private final class EntryList {
    var items: [ParsedEntry] = []
}
