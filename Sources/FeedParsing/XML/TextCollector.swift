import FeedBasics
import Foundation
import FeedModel

/// Where a collected text value goes once its element ends.
enum TextField {
    // Feed level.
    case feedTitle, feedLink, ttl, skipHour, skipDay, updatePeriod, updateFrequency
    case feedDescription, feedLanguage
    /// A feed picture; `source` names the element (``ParsedFeed/pictures``).
    case feedPicture(source: String)
    // Inside an author element (Atom's, or an RSS `author` with child elements), entry or feed.
    case authorName, authorEmail, authorURI
    // Entry level (`podcastAuthor` at feed level too).
    case title, secondaryTitle, mediaTitle, link, originalLink, nativeID, summary, content
    case published(rank: Int), updated, author, podcastAuthor, itunesDuration
    /// RSS `category` with its `domain`, `dc:subject`, `media:category` with its `scheme` and
    /// `label`, an Atom `category` holding its term as text.
    case category(scheme: String?, label: String? = nil)
    /// An Atom link written as text, entry or feed level.
    case linkText(rel: String?, type: String?, length: String?)
    /// An identifier from another vocabulary (`yt:videoId`), written as the entry's id when
    /// it has no guid or id of its own: `prefix` + the text.
    case namespacedID(prefix: String)

    /// A person written as one string, which may turn out to be an element with children.
    var isOneStringPerson: Bool {
        switch self {
        case .author, .podcastAuthor: return true
        default: return false
        }
    }
}

/// The text of one element being gathered, with the markup of its children when the
/// element holds (X)HTML.
struct TextCollector {
    var field: TextField
    /// Index in the element stack of the element whose text this is.
    var frameIndex: Int
    var kind: FeedText.Kind
    /// Child elements are written back as tags (rich text) rather than dropped (plain fields).
    var capturesMarkup: Bool
    var elementName: String
    /// The element's text is base64 (Atom 0.3 `mode="base64"`, or an Atom 1.0 `type` that is
    /// neither text nor XML): decoded once it is complete.
    var isBase64 = false
    /// The text of child elements counts (a title's `<b>`); not for a category, whose children
    /// (an `<image>` inside one) describe something else.
    var keepsChildText = true
    var bytes: [UInt8] = []

    /// The text as its type says to read it: base64 decoded when it is base64 of UTF-8 text;
    /// as collected when it is not base64 at all (a character outside the alphabet: a type
    /// said base64 by mistake, as feedparser and gofeed read it); `nil` for the `content` of an
    /// entry that is base64 of something else (a picture, a file), which a reader cannot show
    /// as text. A title or summary is never dropped: base64 of bytes that are not text reads
    /// as written.
    var decodedBytes: [UInt8]? {
        guard isBase64 else { return bytes }
        guard let data = Data(base64Encoded: Data(bytes.filter { !$0.isASCIIWhitespace })) else { return bytes }
        guard let text = String(validating: data, as: UTF8.self), !data.contains(0) else {
            if case .content = field { return nil }
            return bytes
        }
        return Array(text.utf8)
    }

    init(field: TextField, frameIndex: Int, kind: FeedText.Kind, capturesMarkup: Bool, elementName: String) {
        self.field = field
        self.frameIndex = frameIndex
        self.kind = kind
        self.capturesMarkup = capturesMarkup
        self.elementName = elementName
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The text without leading and trailing ASCII white space, cut on the bytes (Foundation's
    /// `trimmingCharacters` walks UTF-16 and dominated the parse profile).
    var trimmedText: String {
        guard let first = bytes.firstIndex(where: { !$0.isASCIIWhitespace }),
            let last = bytes.lastIndex(where: { !$0.isASCIIWhitespace })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    var isBlank: Bool { !bytes.contains { !$0.isASCIIWhitespace } }

    /// Text as delivered by the parser: escaped again where it sits inside XHTML markup, raw
    /// where it is itself HTML source (escaped HTML, CDATA) or plain text.
    mutating func append(_ buffer: UnsafeBufferPointer<UInt8>, insideChildMarkup: Bool) {
        if insideChildMarkup, !keepsChildText { return }
        makeRoom(for: buffer.count)
        if kind == .xhtml || (capturesMarkup && insideChildMarkup) {
            appendEscaped(buffer)
        } else {
            bytes.append(contentsOf: buffer)
        }
    }

    /// Past ``slowGrowthFrom`` bytes the text grows by a quarter at a time instead of
    /// doubling, as an array would: the parser hands a long text over a few hundred bytes at
    /// a time, so a 1 MB entry body had a 2 MiB buffer, and 3 MiB while the doubling copied.
    /// The extra copies are a few per megabyte.
    private mutating func makeRoom(for count: Int) {
        let needed = bytes.count + count
        guard needed > bytes.capacity, bytes.count >= Self.slowGrowthFrom else { return }
        bytes.reserveCapacity(needed + bytes.count / 4)
    }

    static let slowGrowthFrom = 64 * 1024

    mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        Markup.appendEscaped(buffer, to: &bytes)
    }

    mutating func appendStartTag(_ name: String, attributes: [(name: String, value: String)], selfClosing: Bool) {
        var tag = "<" + name
        for attribute in attributes where !attribute.name.hasPrefix("xmlns") {
            tag += " " + attribute.name + "=\"" + Markup.escape(attribute.value) + "\""
        }
        tag += selfClosing ? ">" : ">"
        bytes.append(contentsOf: Array(tag.utf8))
    }

    mutating func appendEndTag(_ name: String) {
        bytes.append(contentsOf: Array("</\(name)>".utf8))
    }
}

/// HTML elements that never have content; an unclosed `<br>` in a feed's raw HTML must not
/// swallow the rest of the entry.
let voidHTMLElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
]
