import FeedModel
import Foundation

/// Reads JSON Feed as it arrives: each object of the top-level `items` array is decoded and
/// handed on as soon as its closing brace is in, so a large JSON Feed is never held whole.
///
/// A byte scanner follows the document's structure (strings and their escapes, nesting)
/// just enough to cut out the items; everything outside them (the feed's own members, with
/// `items` left as `[]`) is kept and decoded at the end by ``JSONFeedParser``. Each item is
/// decoded by the same lenient rules as in a whole document, so the result is the same.
struct JSONFeedStream {
    /// The document without its items' bytes.
    private var skeleton: [UInt8] = []
    /// The item being cut out.
    private var item: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The raw bytes of the last member name read at the top level.
    private var key: [UInt8] = []
    private var readingKey = false
    /// A `:` after the `items` name was read: an `[` now opens the items.
    private var awaitingItems = false
    /// The nesting of the items array's elements while inside it.
    private var itemsDepth: Int?
    private var capturing = false
    /// The first reason the document is not valid JSON, if it is not.
    private(set) var invalid: String?

    private static let itemsKey = Array("items".utf8)

    /// Scans the next bytes; returns the items they completed.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> [JSONFeedItem] {
        var completed: [JSONFeedItem] = []
        for byte in bytes where invalid == nil {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    readingKey = false
                    route(byte)
                    continue
                }
                if readingKey { key.append(byte) }
                route(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                if depth == 1, itemsDepth == nil {
                    readingKey = true
                    key.removeAll(keepingCapacity: true)
                }
                route(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if awaitingItems, byte == UInt8(ascii: "[") {
                    // The items array: its elements are cut out, and it stays `[]` in the skeleton.
                    awaitingItems = false
                    skeleton.append(contentsOf: [UInt8(ascii: "["), UInt8(ascii: "]")])
                    depth += 1
                    itemsDepth = depth
                    continue
                }
                awaitingItems = false
                if let itemsDepth, depth == itemsDepth, !capturing, byte == UInt8(ascii: "{") {
                    capturing = true
                    item.removeAll(keepingCapacity: true)
                }
                route(byte)
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { invalid = "unexpected '\(Character(Unicode.Scalar(byte)))'" }
                if let items = itemsDepth, depth < items {
                    itemsDepth = nil
                    continue
                }
                route(byte)
                if capturing, depth == itemsDepth {
                    capturing = false
                    if let decoded = decodeItem() { completed.append(decoded) }
                }
            case UInt8(ascii: ":"):
                if depth == 1, itemsDepth == nil { awaitingItems = key == Self.itemsKey }
                route(byte)
            default:
                if !byte.isASCIIWhitespace { awaitingItems = false }
                route(byte)
            }
        }
        return completed
    }

    /// The feed without its items, once the whole document has been scanned.
    func finish() throws(FeedParseError) -> ParsedFeed {
        if let invalid { throw FeedParseError.unreadable(line: 1, column: 1, reason: "invalid JSON: \(invalid)") }
        guard depth == 0, !inString else {
            throw FeedParseError.unreadable(line: 1, column: 1, reason: "invalid JSON: the document ends before its last value does")
        }
        return try JSONFeedParser.parse(utf8: skeleton)
    }

    private mutating func route(_ byte: UInt8) {
        if capturing {
            item.append(byte)
        } else if itemsDepth == nil {
            skeleton.append(byte)
        }
    }

    /// An item that is not a JSON Feed item (a wrong type) is skipped, as in a whole document;
    /// bytes that are not JSON make the document invalid.
    private mutating func decodeItem() -> JSONFeedItem? {
        do {
            return try JSONFeedParser.decode(Lenient<JSONFeedItem>.self, from: item).value
        } catch {
            invalid = JSONFeedParser.describe(error)
            return nil
        }
    }
}
