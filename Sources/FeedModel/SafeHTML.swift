/// An entry's summary as the sanitiser wrote it (HTML safe to display), held as its UTF-8 bytes.
///
/// Why bytes, not a `String`: the sanitiser writes bytes, and what reads a summary next (the
/// content hash, SQLite) reads bytes. Making a `String` in between checked and copied every
/// byte of every summary once more: a fifth of what normalising a feed cost.
///
/// The bytes are always valid UTF-8, so what SQLite stores as `TEXT` is text. A summary is made
/// from a `String`, or, inside this package, by the sanitiser from a feed's text, which the
/// parser has already made valid UTF-8 (every document is decoded to UTF-8 before libxml2 reads
/// it). The sanitiser keeps runs of its input whole, cut only at ASCII bytes, and adds only
/// ASCII and the UTF-8 of the characters it decodes. Debug builds and the fuzz target check
/// this on every summary.
public struct SafeHTML: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let utf8: [UInt8]

    /// For HTML the caller has made safe itself: tests, fixtures and benchmarks.
    public init(_ text: String) {
        utf8 = Array(text.utf8)
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    /// For the sanitiser, which writes bytes: `bytes` must be valid UTF-8.
    package init(validUTF8 bytes: [UInt8]) {
        assert(String(validating: bytes, as: UTF8.self) != nil, "a summary is valid UTF-8")
        utf8 = bytes
    }

    public var text: String { String(decoding: utf8, as: UTF8.self) }
    public var description: String { text }
}
