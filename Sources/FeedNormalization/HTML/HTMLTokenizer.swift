import FeedBasics
import Glibc

/// What the tokenizer hands out, in document order.
protocol HTMLTokenSink {
    /// Whether start tags' attributes are wanted: when not, they are skipped undecoded.
    var wantsAttributes: Bool { get }
    /// Text with character references decoded and control characters dropped: valid UTF-8
    /// (when the input is), to be escaped again by whoever writes it out.
    mutating func text(_ utf8: UnsafeBufferPointer<UInt8>)
    /// `attributes` holds only the ones ``HTMLAttributeName`` knows, first occurrence first.
    mutating func startTag(_ element: HTMLElement, attributes: [HTMLAttribute], selfClosing: Bool)
    mutating func endTag(_ element: HTMLElement)
}

/// Splits an entry's HTML into text and tags the way browsers' tokenizers do (WHATWG HTML
/// §13.2.5, simplified), in one pass over the bytes, without building a tree.
///
/// Why not libxml2's HTML parser: it builds a document per entry and reads every character
/// through a decoding function; it was most of the cost of normalising a feed. The tokenizer
/// only has to find where tags begin and end: the writer decides what the tags mean.
///
/// Safety does not rest on tokenizing exactly as a browser does. The sanitiser writes its
/// output from these tokens, escaping all text and writing only tags and attributes it
/// allows, so whatever the input, the output is well-formed markup from the allowlist.
/// Malformed input only changes which text survives:
/// - `<` that starts no tag (`a < b`, `<3`) is text.
/// - A tag, comment or quoted attribute value cut off by the end of the input is dropped,
///   with whatever followed it.
/// - Comments, `<!DOCTYPE…>` and `<?…>` are dropped; `<!` followed by no name, or by no
///   `>`, is text (`<![CDATA[` in HTML is shown as written).
/// - A self-closed tag (`<div/>`, `<iframe … />`) has no content, as XHTML writers meant.
/// - The content of `script`, `style`, `iframe` and the other raw-text elements is text up
///   to their end tag, so markup inside them is never read as markup.
struct HTMLTokenizer {
    private let input: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Reused for decoded text and attribute values.
    private var scratch: [UInt8] = []
    private var attributes: [HTMLAttribute] = []

    private init(input: UnsafeBufferPointer<UInt8>) {
        self.input = input
    }

    static func tokenize<Sink: HTMLTokenSink>(_ html: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        guard html.baseAddress != nil else { return }
        var tokenizer = HTMLTokenizer(input: html)
        tokenizer.run(&sink)
    }

    private enum Markup {
        case startTag(HTMLElement, selfClosing: Bool)
        case endTag(HTMLElement)
        /// A comment, a declaration, or a tag cut off by the end of the input.
        case ignored
    }

    private mutating func run<Sink: HTMLTokenSink>(_ sink: inout Sink) {
        var textStart = 0
        while let open = nextIndex(of: UInt8(ascii: "<"), from: index) {
            index = open
            guard let markup = readMarkup(keepingAttributes: sink.wantsAttributes) else {
                index = open + 1
                continue
            }
            emitText(textStart..<open, decoding: true, to: &sink)
            switch markup {
            case .startTag(let element, let selfClosing):
                sink.startTag(element, attributes: attributes, selfClosing: selfClosing)
                // A self-closed `<iframe … />` (XHTML writers) has no content to read as text.
                if !selfClosing { readContent(of: element, to: &sink) }
            case .endTag(let element):
                sink.endTag(element)
            case .ignored:
                break
            }
            textStart = index
        }
        emitText(textStart..<input.count, decoding: true, to: &sink)
        index = input.count
    }

    /// What follows a raw-text element's start tag is text up to its end tag.
    private mutating func readContent<Sink: HTMLTokenSink>(of element: HTMLElement, to sink: inout Sink) {
        switch element.content {
        case .markup:
            return
        case .plainText:
            emitText(index..<input.count, decoding: false, to: &sink)
            index = input.count
        case .rawText, .escapableRawText:
            let end = endTag(of: element, from: index)
            emitText(index..<end, decoding: element.content == .escapableRawText, to: &sink)
            index = end
            guard end < input.count, case .endTag(let closed)? = readMarkup(keepingAttributes: false) else { return }
            sink.endTag(closed)
        }
    }

    // MARK: Markup

    /// Reads the markup starting at `index` (a `<`) and moves past it; `nil` when the `<`
    /// starts none and is text.
    private mutating func readMarkup(keepingAttributes: Bool) -> Markup? {
        let next = index + 1
        guard next < input.count else { return nil }
        let byte = input[next]
        if byte.isASCIILetter {
            return readTag(nameStart: next, keepingAttributes: keepingAttributes, isEnd: false)
        }
        switch byte {
        case UInt8(ascii: "/"):
            guard next + 1 < input.count else { return nil }
            if input[next + 1].isASCIILetter {
                return readTag(nameStart: next + 1, keepingAttributes: false, isEnd: true)
            }
            if input[next + 1] == UInt8(ascii: ">") {
                index = next + 2
                return .ignored
            }
            return skipDeclaration(from: next + 1)
        case UInt8(ascii: "!"):
            if hasPrefix("<!--", at: index) {
                skipComment(from: index + 4)
                return .ignored
            }
            // `<!DOCTYPE …>` is dropped; `<!'` or `<![CDATA[` in HTML is text.
            guard next + 1 < input.count, input[next + 1].isASCIILetter else { return nil }
            return skipDeclaration(from: next + 1)
        case UInt8(ascii: "?"):
            return skipDeclaration(from: next + 1)
        default:
            return nil
        }
    }

    private mutating func readTag(nameStart: Int, keepingAttributes: Bool, isEnd: Bool) -> Markup {
        var cursor = nameStart
        while cursor < input.count, !isTagNameEnd(input[cursor]) { cursor += 1 }
        let element = HTMLElement.named(slice(nameStart..<cursor))
        attributes.removeAll(keepingCapacity: true)
        guard let selfClosing = readAttributes(from: cursor, keeping: keepingAttributes) else {
            index = input.count
            return .ignored
        }
        return isEnd ? .endTag(element) : .startTag(element, selfClosing: selfClosing)
    }

    /// Reads attributes up to and past the tag's `>`; `nil` when the input ends first.
    /// Returns whether the tag ended with `/>`.
    private mutating func readAttributes(from start: Int, keeping: Bool) -> Bool? {
        var cursor = start
        while true {
            while cursor < input.count, input[cursor].isASCIIWhitespace { cursor += 1 }
            guard cursor < input.count else { return nil }
            switch input[cursor] {
            case UInt8(ascii: ">"):
                index = cursor + 1
                return false
            case UInt8(ascii: "/"):
                cursor += 1
                if cursor < input.count, input[cursor] == UInt8(ascii: ">") {
                    index = cursor + 1
                    return true
                }
                continue
            default:
                break
            }
            // A name runs to white space, `/`, `>` or `=` (a leading `=` is part of it).
            let nameStart = cursor
            cursor += 1
            while cursor < input.count, !isTagNameEnd(input[cursor]), input[cursor] != UInt8(ascii: "=") { cursor += 1 }
            let nameEnd = cursor
            while cursor < input.count, input[cursor].isASCIIWhitespace { cursor += 1 }
            var value: Range<Int>? = nil
            if cursor < input.count, input[cursor] == UInt8(ascii: "=") {
                cursor += 1
                while cursor < input.count, input[cursor].isASCIIWhitespace { cursor += 1 }
                guard cursor < input.count else { return nil }
                let quote = input[cursor]
                if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                    guard let close = nextIndex(of: quote, from: cursor + 1) else { return nil }
                    value = cursor + 1..<close
                    cursor = close + 1
                } else {
                    let valueStart = cursor
                    while cursor < input.count, !input[cursor].isASCIIWhitespace, input[cursor] != UInt8(ascii: ">") { cursor += 1 }
                    value = valueStart..<cursor
                }
            }
            guard keeping, let name = HTMLAttributeName.named(slice(nameStart..<nameEnd)),
                !attributes.contains(where: { $0.name == name })
            else { continue }
            attributes.append(HTMLAttribute(name: name, value: value.map { decodedString($0) } ?? ""))
        }
    }

    private func isTagNameEnd(_ byte: UInt8) -> Bool {
        byte.isASCIIWhitespace || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    /// `<!-- … -->`; `<!-->` and `<!--->` are empty comments. An unclosed one runs to the end.
    private mutating func skipComment(from start: Int) {
        if hasPrefix(">", at: start) {
            index = start + 1
            return
        }
        if hasPrefix("->", at: start) {
            index = start + 2
            return
        }
        var cursor = start
        while let dash = nextIndex(of: UInt8(ascii: "-"), from: cursor) {
            if hasPrefix("-->", at: dash) {
                index = dash + 3
                return
            }
            cursor = dash + 1
        }
        index = input.count
    }

    /// `<?…>`, `<!DOCTYPE …>` and the like, dropped up to their `>`; with no `>` after
    /// them, the `<` is text (`<!DOCTYPE` alone, quoted in a title, is shown).
    private mutating func skipDeclaration(from start: Int) -> Markup? {
        guard let close = nextIndex(of: UInt8(ascii: ">"), from: start) else { return nil }
        index = close + 1
        return .ignored
    }

    /// Where the end tag closing a raw-text `element` begins (`</script` followed by white
    /// space, `/` or `>`, any case), or the end of the input.
    private func endTag(of element: HTMLElement, from start: Int) -> Int {
        let name = element.rawValue.utf8
        var cursor = start
        while let open = nextIndex(of: UInt8(ascii: "<"), from: cursor) {
            cursor = open + 1
            let nameStart = open + 2, nameEnd = nameStart + name.count
            guard nameEnd < input.count, input[open + 1] == UInt8(ascii: "/") else { continue }
            guard zip(input[nameStart..<nameEnd], name).allSatisfy({ $0.asciiLowercased == $1 }),
                isTagNameEnd(input[nameEnd])
            else { continue }
            return open
        }
        return input.count
    }

    // MARK: Text

    /// Hands `range` to the sink, character references decoded when `decoding`; control
    /// characters are dropped either way. Text that needs neither goes out without a copy.
    private mutating func emitText<Sink: HTMLTokenSink>(_ range: Range<Int>, decoding: Bool, to sink: inout Sink) {
        guard !range.isEmpty else { return }
        withDecoded(range, references: decoding) { sink.text($0) }
    }

    /// An attribute's value, its references decoded by the attribute rules.
    private mutating func decodedString(_ range: Range<Int>) -> String {
        withDecoded(range, references: true, inAttribute: true) { String(decoding: $0, as: UTF8.self) }
    }

    /// `range` with control characters dropped and, with `references`, character references
    /// decoded: the input's own bytes when there is nothing to do, else a copy in `scratch`.
    private mutating func withDecoded<Result>(
        _ range: Range<Int>, references: Bool, inAttribute: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        guard let first = firstSpecial(in: range, decoding: references) else { return body(slice(range)) }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: slice(range.lowerBound..<first))
        decode(first..<range.upperBound, references: references, inAttribute: inAttribute, into: &scratch)
        return scratch.withUnsafeBufferPointer(body)
    }

    /// The first `&` (when decoding) or control character in `range`.
    private func firstSpecial(in range: Range<Int>, decoding: Bool) -> Int? {
        guard let base = input.baseAddress else { return nil }
        return ByteScan.firstIndex(
            in: base, from: range.lowerBound, to: range.upperBound,
            wordMayMatch: { ByteScan.word($0, hasByteBelow: 0x20) || decoding && ByteScan.word($0, contains: UInt8(ascii: "&")) },
            byteMatches: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || decoding && $0 == UInt8(ascii: "&") })
    }

    private func decode(_ range: Range<Int>, references: Bool, inAttribute: Bool, into output: inout [UInt8]) {
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            let byte = input[cursor]
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                cursor += 1
            } else if references, byte == UInt8(ascii: "&"),
                let reference = characterReference(at: cursor, before: range.upperBound, inAttribute: inAttribute)
            {
                if let scalar = reference.scalar { appendUTF8(scalar, to: &output) }
                if let second = reference.second { appendUTF8(second, to: &output) }
                cursor += reference.length
            } else {
                output.append(byte)
                cursor += 1
            }
        }
    }

    /// The character reference at `start` (an `&`): its scalar (`nil` for a number XML does
    /// not allow, which is dropped), a second scalar for the few names that stand for two, and
    /// its length; `nil` when the `&` is a literal one. Numbers may omit their `;`. Names are
    /// the WHATWG table's (``NamedEntities``), read as browsers read them: the legacy ones
    /// without `;` too (`&copy 2024`), except in an attribute value before `=` or a letter or
    /// digit (`href="?a=1&copy=2"` keeps its `&copy=`).
    private func characterReference(at start: Int, before end: Int, inAttribute: Bool) -> (scalar: UInt32?, second: UInt32?, length: Int)? {
        var cursor = start + 1
        guard cursor < end else { return nil }
        if input[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let hex = cursor < end && input[cursor].asciiLowercased == UInt8(ascii: "x")
            if hex { cursor += 1 }
            let digitsStart = cursor
            var value: UInt32 = 0
            while cursor < end, let digit = digitValue(input[cursor], hex: hex) {
                value = min(value &* (hex ? 16 : 10) &+ digit, 0x11_0000)
                cursor += 1
            }
            guard cursor > digitsStart else { return nil }
            if cursor < end, input[cursor] == UInt8(ascii: ";") { cursor += 1 }
            // `&#150;` is what windows-1252 text converted by hand gives; browsers read 0x80-0x9F
            // as that code page's characters (HTML's numeric character reference end state).
            if value >= 0x80, value <= 0x9F, let mapped = Self.windows1252C1[Int(value - 0x80)] { value = mapped }
            let allowed = Unicode.Scalar(value).map(XMLCharacters.isAllowed) ?? false
            return (allowed ? value : nil, nil, cursor - start)
        }
        guard let match = NamedEntities.longestMatch(in: slice(cursor..<end)) else { return nil }
        let next = cursor + match.length
        if inAttribute, !match.hasSemicolon, next < end, input[next] == UInt8(ascii: "=") || input[next].isASCIILetterOrDigit {
            return nil
        }
        let allowed = Unicode.Scalar(match.first).map(XMLCharacters.isAllowed) ?? false
        return (allowed ? match.first : nil, match.second, match.length + 1)
    }

    /// The HTML standard's replacements for numeric references 0x80-0x9F (windows-1252's
    /// characters); `nil` where it keeps the number (0x81, 0x8D, 0x8F, 0x90, 0x9D).
    private static let windows1252C1: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil, 0x017D, nil,
        nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, nil, 0x017E, 0x0178,
    ]

    private func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        if byte.isASCIIDigit { return UInt32(byte - UInt8(ascii: "0")) }
        guard hex else { return nil }
        let lower = byte | 0x20
        guard lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "f") else { return nil }
        return UInt32(lower - UInt8(ascii: "a") + 10)
    }

    private func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value), let encoded = UTF8.encode(scalar) else { return }
        output.append(contentsOf: encoded)
    }

    // MARK: Bytes

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: input[range])
    }

    private func hasPrefix(_ prefix: StaticString, at start: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard start + count <= input.count, let base = input.baseAddress else { return false }
        return memcmp(base + start, prefix.utf8Start, count) == 0
    }

    private func nextIndex(of byte: UInt8, from start: Int) -> Int? {
        guard start < input.count, let base = input.baseAddress,
            let found = memchr(base + start, Int32(byte), input.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
