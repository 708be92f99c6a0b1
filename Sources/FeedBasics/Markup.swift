/// Escaping for XML and HTML, in one place for every writer: the parser re-escaping XHTML
/// content, the sanitiser writing HTML, and the publisher writing `atom.xml` and `index.html`.
public enum Markup {
    /// `text` escaped for XML or HTML text and double-quoted attribute values (`&`, `<`, `>`,
    /// `"`). Characters XML 1.0 forbids are dropped rather than making the document invalid.
    public static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            default: if XMLCharacters.isAllowed(scalar) { output.unicodeScalars.append(scalar) }
            }
        }
        return output
    }

    /// Appends UTF-8 `text` with `&`, `<`, `>` (and in attributes `"`) escaped; with
    /// `lineBreaks`, a newline becomes `<br>` and a carriage return is dropped. Works on bytes:
    /// libxml2 hands out UTF-8, and escaping straight into a byte buffer avoids building Swift
    /// strings scalar by scalar (which was most of the normalisation profile).
    public static func appendEscaped(
        _ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8], attribute: Bool = false, lineBreaks: Bool = false
    ) {
        guard let start = text.baseAddress else { return }
        appendEscaped(start, count: text.count, to: &output, attribute: attribute, lineBreaks: lineBreaks)
    }

    /// The same for a NUL-terminated C string (what libxml2's node content is), in one pass.
    public static func appendEscaped(
        _ text: UnsafePointer<UInt8>, to output: inout [UInt8], attribute: Bool = false, lineBreaks: Bool = false
    ) {
        appendEscaped(text, count: nil, to: &output, attribute: attribute, lineBreaks: lineBreaks)
    }

    /// The one escaping loop: `count` bytes, or up to the NUL when `count` is `nil`. Inlined
    /// into both callers, so neither pays for the other's end test.
    @inline(__always)
    private static func appendEscaped(
        _ text: UnsafePointer<UInt8>, count: Int?, to output: inout [UInt8], attribute: Bool, lineBreaks: Bool
    ) {
        @inline(__always) func more(_ index: Int) -> Bool {
            if let count { return index < count }
            return text[index] != 0
        }
        var index = 0
        while more(index) {
            // A run of bytes that need no escaping, appended at once.
            var runEnd = index
            if let count {
                runEnd = ByteScan.firstIndex(
                    in: text, from: index, to: count,
                    wordMayMatch: { mayNeedEscape($0, attribute: attribute, lineBreaks: lineBreaks) },
                    byteMatches: { needsEscape($0, attribute: attribute, lineBreaks: lineBreaks) }) ?? count
            } else {
                while more(runEnd), !needsEscape(text[runEnd], attribute: attribute, lineBreaks: lineBreaks) { runEnd += 1 }
            }
            if runEnd != index {
                output.append(contentsOf: UnsafeBufferPointer(start: text + index, count: runEnd - index))
                index = runEnd
                continue
            }
            switch text[index] {
            case UInt8(ascii: "&"): output.append(contentsOf: amp)
            case UInt8(ascii: "<"): output.append(contentsOf: lt)
            case UInt8(ascii: ">"): output.append(contentsOf: gt)
            case UInt8(ascii: "\""): output.append(contentsOf: quot)
            case UInt8(ascii: "\n"): output.append(contentsOf: br)
            default: break  // "\r" with lineBreaks
            }
            index += 1
        }
    }

    public static func appendEscaped(_ text: String, to output: inout [UInt8], attribute: Bool = false, lineBreaks: Bool = false) {
        var copy = text
        copy.withUTF8 { appendEscaped($0, to: &output, attribute: attribute, lineBreaks: lineBreaks) }
    }

    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64, attribute: Bool, lineBreaks: Bool) -> Bool {
        ByteScan.word(word, contains: UInt8(ascii: "&")) || ByteScan.word(word, contains: UInt8(ascii: "<"))
            || ByteScan.word(word, contains: UInt8(ascii: ">")) || attribute && ByteScan.word(word, contains: UInt8(ascii: "\""))
            || lineBreaks && ByteScan.word(word, hasByteBelow: 0x0E)
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, attribute: Bool, lineBreaks: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): return true
        case UInt8(ascii: "\""): return attribute
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return lineBreaks
        default: return false
        }
    }

    private static let amp = Array("&amp;".utf8)
    private static let lt = Array("&lt;".utf8)
    private static let gt = Array("&gt;".utf8)
    private static let quot = Array("&quot;".utf8)
    private static let br = Array("<br>".utf8)
}
