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

    public var value: String
    public var kind: Kind

    public init(_ value: String, kind: Kind) {
        self.value = value
        self.kind = kind
    }
}
