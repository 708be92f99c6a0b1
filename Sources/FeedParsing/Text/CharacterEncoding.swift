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
/// 2. The `<` of BOM-less UTF-32 or the `<?` of BOM-less UTF-16 (XML 1.0 Appendix F), then a
///    UTF-16/32 label (transport charset, then the XML declaration).
/// 3. Bytes that are valid UTF-8 are UTF-8, whatever a label says: a single-byte text that
///    happens to be valid multi-byte UTF-8 is vanishingly rare, while feeds labelled
///    ISO-8859-1 that are really UTF-8 are common. So is a UTF-8 feed with a few stray
///    windows-1252 bytes (a Latin-1 template around UTF-8 items): when, at the first
///    non-ASCII byte, well-formed UTF-8 sequences are at least as many as the stray bytes
///    and the label is of the windows-1252 family (or UTF-8, or absent), the document is
///    UTF-8 and each stray byte windows-1252 (``MixedEncoding``).
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

    /// The whole document at once: the same rules, and the same result, as decoding it in
    /// chunks with ``StreamingDecoder`` (which this is, with one chunk).
    public static func decode(_ bytes: [UInt8], transportCharset: String? = nil) -> Decoded {
        var decoder = StreamingDecoder(transportCharset: transportCharset)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count)
        bytes.withUnsafeBytes { decoder.decode($0, isLast: true, into: &utf8) }
        return Decoded(utf8: utf8, name: decoder.name, notes: decoder.notes)
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

    static func isWideEncoding(_ name: String) -> Bool {
        name.hasPrefix("UTF-16") || name.hasPrefix("UTF-32") || name == "UCS-2"
    }

    /// A document without a byte-order mark starts with `<`, which UTF-16 and UTF-32 write with
    /// zero bytes around it (XML 1.0 Appendix F): `00 00 00 3C` is UTF-32BE, `3C 00 00 00`
    /// UTF-32LE, `00 3C 00 3F` UTF-16BE, `3C 00 3F 00` UTF-16LE. (The unusual 2143 and 3412
    /// byte orders are not decoded: the system has no converter for them.)
    static func sniffBOMlessWideEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 4 else { return nil }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0, 0, 0, 0x3C): return "UTF-32BE"
        case (0x3C, 0, 0, 0): return "UTF-32LE"
        case (0x3C, 0, 0x3F, 0): return "UTF-16LE"
        case (0, 0x3C, 0, 0x3F): return "UTF-16BE"
        default: return nil
        }
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

/// The system's converter (iconv), for the encodings Feedmill has no table of its own for,
/// fed chunk by chunk. A class: it owns the `iconv_t`.
final class IconvConverter {
    private let handle: iconv_t

    /// `nil` when the system does not know the encoding.
    init?(from encoding: String) {
        let handle = iconv_open("UTF-8", encoding)
        guard let handle, handle != iconv_t(bitPattern: -1) else { return nil }
        self.handle = handle
    }

    deinit { iconv_close(handle) }

    /// Appends the UTF-8 of `input` to `output`; returns the bytes used. A sequence cut by the
    /// end of a chunk that is not the last waits for the next; a byte that is invalid in the
    /// encoding becomes U+FFFD.
    func convert(_ input: UnsafeBufferPointer<UInt8>, isLast: Bool, into output: inout [UInt8]) -> Int {
        guard let base = input.baseAddress, !input.isEmpty else { return 0 }
        var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
        var inLeft = input.count
        var scratch = [UInt8](repeating: 0, count: input.count * 4 + 16)
        while inLeft > 0 {
            let (produced, error) = scratch.withUnsafeMutableBytes { buffer -> (Int, Int32) in
                var outPointer = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = buffer.count
                let result = iconv(handle, &inPointer, &inLeft, &outPointer, &outLeft)
                return (buffer.count - outLeft, result == -1 ? errno : 0)
            }
            output.append(contentsOf: scratch[..<produced])
            switch error {
            case 0, E2BIG:
                continue
            case EINVAL where !isLast:
                return input.count - inLeft
            default:
                // Skip one undecodable byte and write U+FFFD in its place.
                inPointer = inPointer.map { $0 + 1 }
                inLeft -= 1
                output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            }
        }
        return input.count
    }
}
