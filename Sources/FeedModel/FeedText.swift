import FeedBasics

/// A piece of text exactly as a feed carried it, with the feed's own statement of how to read it.
///
/// Parsing keeps the kind so that normalisation can decide once, in one place, whether
/// `<b>` is markup or five literal characters.
public struct FeedText: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Plain text: `<` is a literal character (Atom `type="text"`, JSON `content_text`).
        case text
        /// HTML, already unescaped once by the XML layer (RSS description, Atom `type="html"`).
        case html
        /// XHTML markup re-serialised from child elements (Atom `type="xhtml"`).
        case xhtml
    }

    /// The text as UTF-8. Kept as bytes because the bodies are most of a feed's size and
    /// normalisation hands them to libxml2's HTML parser as bytes: building a `String` first
    /// validated every byte a second time (9% of the parse profile).
    public var utf8: [UInt8]
    public var kind: Kind

    public var value: String { String(decoding: utf8, as: UTF8.self) }

    public init(_ value: String, kind: Kind) {
        self.utf8 = Array(value.utf8)
        self.kind = kind
    }

    public init(utf8: [UInt8], kind: Kind) {
        self.utf8 = utf8
        self.kind = kind
    }

    /// Nothing but ASCII white space.
    public var isBlank: Bool {
        !utf8.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C) }
    }
}

extension FeedText {
    /// The same text without the characters XML 1.0 forbids; the same storage when it has none.
    public consuming func withoutForbiddenCharacters() -> FeedText { FeedText(utf8: XMLCharacters.filtered(utf8), kind: kind) }
}
