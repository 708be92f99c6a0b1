import CLibXML2
import FeedBasics
import FeedModel

/// Titles and authors as plain text: tags stripped, entities decoded, white space collapsed.
///
/// RSS titles are read as HTML, because in the wild they carry escaped markup and
/// double-escaped entities (`AT&amp;amp;T`) far more often than a literal `<`. Atom titles
/// follow their `type`: `text` is taken literally.
public enum PlainText {
    /// - Parameter typed: the kind was stated by the feed (Atom's `type`), so every tag in
    ///   HTML is markup; otherwise (RSS, where titles are HTML by custom only) a `<` that opens
    ///   no HTML element is a literal character (``escapingUnknownTags(_:)``).
    public static func from(_ text: FeedText, typed: Bool = false) -> String {
        switch text.kind {
        case .text:
            return collapseWhitespace(text.value)
        case .html, .xhtml:
            return fromHTML(text.value, keepingUnknownTags: !typed)
        }
    }

    /// A feed's or an entry's title, by its format's rule: Atom's `type` is a statement
    /// (`typed`), RSS titles are HTML by custom, JSON Feed titles are text with character
    /// references (``fromTextWithReferences(_:)``).
    public static func title(_ text: FeedText, format: FeedFormat) -> String {
        format == .json && text.kind == .text ? fromTextWithReferences(text.value) : from(text, typed: format == .atom)
    }

    /// Plain text in which publishers write HTML's character references anyway: JSON Feed
    /// titles are plain text by the spec, but WordPress's and other generators' JSON Feeds run
    /// them through the same escaping as their pages (`"Add Task &amp; Sub Tasks"`,
    /// `"It&#8217;s"`), and a literal `&amp;` is what no title means. The references are
    /// decoded once, as the HTML reader decodes them; every `<` stays a character
    /// (`"Why <script> matters"` keeps its words) and white space collapses as in any title.
    public static func fromTextWithReferences(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return collapseWhitespace(text) }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "<") { escaped.append(contentsOf: "&lt;".utf8) } else { escaped.append(byte) }
        }
        return fromHTML(String(decoding: escaped, as: UTF8.self), keepingUnknownTags: false)
    }

    public static func fromHTML(_ html: String, keepingUnknownTags: Bool = true) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return collapseWhitespace(html)
        }
        var source = keepingUnknownTags ? escapingUnknownTags(Array(html.utf8)) : Array(html.utf8)
        var reader = TextReader()
        source.withUnsafeMutableBufferPointer { HTMLTokenizer.tokenize(UnsafeBufferPointer($0), into: &reader) }
        let text = String(decoding: reader.output, as: UTF8.self)
        return collapseWhitespace(text)
    }

    /// Only real markup is stripped from a title: a `<` that opens a name HTML does not know
    /// (`Vec<T>`, `the <blink> tag`, `<Rust>`) is a literal character, escaped here so the
    /// HTML parser keeps it as text. libxml2's own element table decides what HTML knows.
    static func escapingUnknownTags(_ html: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while let open = html[index...].firstIndex(of: UInt8(ascii: "<")) {
            output.append(contentsOf: html[index..<open])
            var nameStart = open + 1
            if nameStart < html.count, html[nameStart] == UInt8(ascii: "/") { nameStart += 1 }
            var nameEnd = nameStart
            while nameEnd < html.count, html[nameEnd].isASCIILetterOrDigit || (nameEnd > nameStart && html[nameEnd] == UInt8(ascii: "-")) {
                nameEnd += 1
            }
            let named = nameEnd > nameStart && html[nameStart].isASCIILetterOrDigit && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(html[nameStart])
            // A tag's name ends at white space, `>` or `/`; `<Map<String>` is no tag.
            let ends = nameEnd == html.count || [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(html[nameEnd])
            if named, !ends || !isHTMLElement(Array(html[nameStart..<nameEnd])) {
                output.append(contentsOf: Array("&lt;".utf8))
            } else {
                output.append(UInt8(ascii: "<"))
            }
            index = open + 1
        }
        output.append(contentsOf: html[index...])
        return output
    }

    private static func isHTMLElement(_ name: [UInt8]) -> Bool {
        (name.map { $0 | 0x20 } + [0]).withUnsafeBufferPointer { htmlTagLookup($0.baseAddress) != nil }
    }

    /// Runs of white space (ASCII white space and U+00A0 no-break space) become one space;
    /// the ends are trimmed. Works on UTF-8 bytes.
    public static func collapseWhitespace(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        var previousWasC2 = false
        for byte in text.utf8 {
            if previousWasC2 {
                previousWasC2 = false
                if byte == 0xA0 {
                    pendingSpace = !output.isEmpty
                    continue
                }
                if pendingSpace { output.append(0x20) }
                pendingSpace = false
                output.append(0xC2)
                output.append(byte)
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                pendingSpace = !output.isEmpty
            case 0xC2:
                previousWasC2 = true
            default:
                if pendingSpace { output.append(0x20) }
                pendingSpace = false
                output.append(byte)
            }
        }
        if previousWasC2 { output.append(0xC2) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The text of a tokenized fragment: the content of `script`, `style` and the other
    /// raw-text elements is left out, and block elements read as a space.
    private struct TextReader: HTMLTokenSink {
        var output: [UInt8] = []
        private var skipping: HTMLElement?

        var wantsAttributes: Bool { false }

        mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) {
            if skipping == nil { output.append(contentsOf: utf8) }
        }

        mutating func startTag(_ element: HTMLElement, attributes: [HTMLAttribute], selfClosing: Bool) {
            guard skipping == nil else { return }
            if element.content == .rawText, element != .xmp, !selfClosing {
                skipping = element
            } else if element.isBlock {
                output.append(0x20)
            }
        }

        mutating func endTag(_ element: HTMLElement) {
            if let skipped = skipping {
                if element == skipped { skipping = nil }
            } else if element.isBlock {
                output.append(0x20)
            }
        }
    }
}
