/// Byte-level helpers for writing HTML: libxml2 hands out UTF-8 C strings, and escaping them
/// straight into a byte buffer avoids building Swift strings scalar by scalar (which was most
/// of the normalisation profile).
enum HTMLBytes {
    /// Appends `text` with `&`, `<`, `>` (and in attributes `"`) escaped; with
    /// `lineBreaks`, a newline becomes `<br>` and a carriage return is dropped.
    static func appendEscaped(
        _ text: UnsafePointer<UInt8>, to output: inout [UInt8], attribute: Bool = false, lineBreaks: Bool = false
    ) {
        var cursor = text
        while cursor.pointee != 0 {
            // A run of bytes that need no escaping, appended at once.
            var runEnd = cursor
            while runEnd.pointee != 0, !needsEscape(runEnd.pointee, attribute: attribute, lineBreaks: lineBreaks) { runEnd += 1 }
            if runEnd != cursor {
                output.append(contentsOf: UnsafeBufferPointer(start: cursor, count: cursor.distance(to: runEnd)))
                cursor = runEnd
                continue
            }
            let byte = cursor.pointee
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: amp)
            case UInt8(ascii: "<"): output.append(contentsOf: lt)
            case UInt8(ascii: ">"): output.append(contentsOf: gt)
            case UInt8(ascii: "\"") where attribute: output.append(contentsOf: quot)
            case UInt8(ascii: "\n") where lineBreaks: output.append(contentsOf: br)
            case UInt8(ascii: "\r") where lineBreaks: break
            default: output.append(byte)
            }
            cursor += 1
        }
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

    static func appendEscaped(_ text: String, to output: inout [UInt8], attribute: Bool = false, lineBreaks: Bool = false) {
        var copy = text
        copy.withUTF8 { buffer in
            var bytes = Array(buffer)
            bytes.append(0)
            bytes.withUnsafeBufferPointer { pointer in
                if let base = pointer.baseAddress {
                    appendEscaped(base, to: &output, attribute: attribute, lineBreaks: lineBreaks)
                }
            }
        }
    }

    static func append(_ text: String, to output: inout [UInt8]) {
        output.append(contentsOf: text.utf8)
    }

    private static let amp = Array("&amp;".utf8)
    private static let lt = Array("&lt;".utf8)
    private static let gt = Array("&gt;".utf8)
    private static let quot = Array("&quot;".utf8)
    private static let br = Array("<br>".utf8)
}

extension ArraySlice<UInt8> {
    /// Without leading and trailing ASCII white space (space, tab, CR, LF, form feed).
    func trimmingASCIIWhitespace() -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[startIndex..<startIndex]
        }
        return self[first...last]
    }
}
