/// The characters XML 1.0 allows (§2.2): tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD and
/// U+10000–U+10FFFF. Text that reaches a client or an XML file is filtered to them, so a NUL
/// or a U+FFFF in a feed can neither truncate a stored title (C APIs stop at NUL) nor make
/// `atom.xml` ill-formed.
public enum XMLCharacters {
    @inlinable public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// `utf8` (valid UTF-8) without forbidden characters; the same array when it has none,
    /// which a single byte scan decides (C0 controls, and U+FFFE/U+FFFF as EF BF BE/BF).
    public static func filtered(_ utf8: [UInt8]) -> [UInt8] {
        guard containsForbidden(utf8) else { return utf8 }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count)
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars where isAllowed(scalar) {
            output.append(contentsOf: String(scalar).utf8)
        }
        return output
    }

    public static func filtered(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        guard containsForbidden(utf8) else { return text }
        return String(decoding: filtered(utf8), as: UTF8.self)
    }

    private static func containsForbidden(_ utf8: [UInt8]) -> Bool {
        utf8.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var start = 0
            while let index = ByteScan.firstIndex(
                in: base, from: start, to: buffer.count,
                wordMayMatch: { ByteScan.word($0, hasByteBelow: 0x20) || ByteScan.word($0, contains: 0xEF) },
                byteMatches: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0xEF })
            {
                if base[index] != 0xEF { return true }
                if index + 2 < buffer.count, base[index + 1] == 0xBF, base[index + 2] >= 0xBE { return true }
                start = index + 1
            }
            return false
        }
    }
}
