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
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return true }
            if byte == 0xEF, index + 2 < utf8.count, utf8[index + 1] == 0xBF, utf8[index + 2] >= 0xBE { return true }
            index += 1
        }
        return false
    }
}
