#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import FeedBasics
#endif

/// Decides how a feed's bytes are to be read and turns them into UTF-8, so that the XML and
/// JSON readers only ever see UTF-8 and never guess.
///
/// Precedence, first match wins:
/// 1. A byte-order mark (UTF-8, UTF-16, UTF-32).
/// 2. A UTF-16/32 label (transport charset, then the XML declaration) or the
///    `<?` pattern of BOM-less UTF-16.
/// 3. Bytes that are valid UTF-8 are UTF-8, whatever a label says: a single-byte text that
///    happens to be valid multi-byte UTF-8 is vanishingly rare, while feeds labelled
///    ISO-8859-1 that are really UTF-8 are common.
/// 4. The transport's charset, then the XML declaration's `encoding`, when the system
///    (iconv) knows it. ISO-8859-1 and US-ASCII are read as windows-1252, as browsers do.
/// 5. windows-1252, which decodes every byte.
public enum CharacterEncoding {
    public struct Decoded: Sendable {
        /// The document as UTF-8, without a byte-order mark.
        public var utf8: [UInt8]
        /// The encoding it was read as, in canonical spelling (`UTF-8`, `windows-1252`, …).
        public var name: String
        /// What was overridden or repaired, for a person reading diagnostics.
        public var notes: [String]
    }

    public static func decode(_ bytes: [UInt8], transportCharset: String? = nil) -> Decoded {
        if let bom = ByteOrderMark(bytes) {
            let body = Array(bytes[bom.length...])
            if bom.encoding == "UTF-8" {
                return utf8Repaired(body, name: "UTF-8", notes: [])
            }
            return transcoded(body, from: bom.encoding, notes: [])
        }
        let transport = transportCharset.map(canonicalName)
        let declared = declaredEncoding(bytes).map(canonicalName)
        if let wide = [transport, declared].compactMap({ $0 }).first(where: isWideEncoding) ?? sniffBOMlessUTF16(bytes) {
            return transcoded(bytes, from: wide, notes: [])
        }
        if UTF8Validation.isValid(bytes) {
            var notes: [String] = []
            if let label = transport ?? declared, label != "UTF-8", label != "US-ASCII", !isASCII(bytes) {
                notes.append("labelled \(label) but the bytes are valid UTF-8; read as UTF-8")
            }
            return Decoded(utf8: bytes, name: "UTF-8", notes: notes)
        }
        for label in [transport, declared].compactMap({ $0 }) where label != "UTF-8" {
            if label == "windows-1252" { return Decoded(utf8: Windows1252.decode(bytes), name: label, notes: []) }
            if let utf8 = Iconv.convert(bytes, from: label) {
                return Decoded(utf8: utf8, name: label, notes: [])
            }
        }
        let label = transport ?? declared ?? "UTF-8"
        return Decoded(
            utf8: Windows1252.decode(bytes), name: "windows-1252",
            notes: ["labelled \(label) but the bytes are not valid \(label); read as windows-1252"])
    }

    /// The spelling Feedmill uses for a charset label; the aliases browsers treat as one.
    static func canonicalName(_ label: String) -> String {
        let lowered = label.trimmingASCII(" \t\"'").lowercased()
        switch lowered {
        case "utf-8", "utf8", "unicode-1-1-utf-8": return "UTF-8"
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso_8859-1", "cp819", "ibm819",
            "windows-1252", "cp1252", "x-cp1252", "ascii", "us-ascii", "iso-ir-100":
            return "windows-1252"
        case "utf-16", "utf16": return "UTF-16"
        case "utf-16le": return "UTF-16LE"
        case "utf-16be": return "UTF-16BE"
        case "utf-32", "utf-32le", "utf-32be": return lowered.uppercased()
        default: return lowered.uppercased()
        }
    }

    private static func isWideEncoding(_ name: String) -> Bool {
        name.hasPrefix("UTF-16") || name.hasPrefix("UTF-32") || name == "UCS-2"
    }

    private static func sniffBOMlessUTF16(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 4 else { return nil }
        if bytes[0] == 0x3C, bytes[1] == 0, bytes[2] == 0x3F, bytes[3] == 0 { return "UTF-16LE" }
        if bytes[0] == 0, bytes[1] == 0x3C, bytes[2] == 0, bytes[3] == 0x3F { return "UTF-16BE" }
        return nil
    }

    private static func isASCII(_ bytes: [UInt8]) -> Bool {
        !bytes.contains { $0 >= 0x80 }
    }

    /// The `encoding` pseudo-attribute of an XML declaration at the very start, if any.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let prefix = bytes.prefix(200)
        guard prefix.starts(with: Array("<?xml".utf8)), let end = prefix.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: prefix[..<end], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        let value = rest.prefix { $0 != quote }
        return value.isEmpty ? nil : String(value)
    }

    private static func utf8Repaired(_ bytes: [UInt8], name: String, notes: [String]) -> Decoded {
        if UTF8Validation.isValid(bytes) { return Decoded(utf8: bytes, name: name, notes: notes) }
        let repaired = Array(String(decoding: bytes, as: UTF8.self).utf8)
        return Decoded(utf8: repaired, name: name, notes: notes + ["invalid UTF-8 sequences replaced with U+FFFD"])
    }

    private static func transcoded(_ bytes: [UInt8], from name: String, notes: [String]) -> Decoded {
        if let utf8 = Iconv.convert(bytes, from: name) {
            return Decoded(utf8: utf8, name: name, notes: notes)
        }
        return Decoded(
            utf8: Windows1252.decode(bytes), name: "windows-1252",
            notes: notes + ["cannot decode \(name); read as windows-1252"])
    }
}

/// A byte-order mark and the encoding it announces.
struct ByteOrderMark {
    let encoding: String
    let length: Int

    init?(_ bytes: [UInt8]) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            (encoding, length) = ("UTF-8", 3)
        } else if bytes.starts(with: [0xFF, 0xFE, 0, 0]) {
            (encoding, length) = ("UTF-32LE", 4)
        } else if bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            (encoding, length) = ("UTF-32BE", 4)
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            (encoding, length) = ("UTF-16LE", 2)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            (encoding, length) = ("UTF-16BE", 2)
        } else {
            return nil
        }
    }
}

/// The system's converter, for the labels Feedmill has no table of its own for.
enum Iconv {
    /// The bytes as UTF-8, or `nil` when the system does not know the encoding. Sequences
    /// invalid in that encoding become U+FFFD, one per byte skipped.
    static func convert(_ bytes: [UInt8], from encoding: String) -> [UInt8]? {
        let converter = iconv_open("UTF-8", encoding)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        var input = bytes
        var produced = 0
        let ok = input.withUnsafeMutableBufferPointer { inBuffer -> Bool in
            output.withUnsafeMutableBufferPointer { outBuffer -> Bool in
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuffer.baseAddress)?
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress)?
                    .assumingMemoryBound(to: CChar.self)
                var outLeft = outBuffer.count
                while inLeft > 0 {
                    if iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 { break }
                    let error = errno
                    guard (error == EILSEQ || error == EINVAL), outLeft >= 3 else { return false }
                    // Skip one undecodable byte and write U+FFFD in its place.
                    inPointer = inPointer.map { $0 + 1 }
                    inLeft -= 1
                    for byte: UInt8 in [0xEF, 0xBF, 0xBD] {
                        outPointer?.pointee = CChar(bitPattern: byte)
                        outPointer = outPointer.map { $0 + 1 }
                        outLeft -= 1
                    }
                }
                produced = outBuffer.count - outLeft
                return true
            }
        }
        guard ok else { return nil }
        output.removeSubrange(produced...)
        return output
    }
}
