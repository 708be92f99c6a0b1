/// The characters XML 1.0 allows (§2.2): tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD and
/// U+10000–U+10FFFF. A feed's text is filtered to them twice: as it is decoded, before
/// libxml2 sees it (libxml2 drops the whole element around a NUL, and everything after it),
/// and again as it is normalised (a JSON Feed can still write `\u0000`), so a NUL or a U+FFFF
/// in a feed can neither lose an entry, nor truncate a stored title (C APIs stop at NUL), nor
/// make `atom.xml` ill-formed.
///
/// In valid UTF-8 the forbidden characters are exactly the C0 controls other than tab, LF and
/// CR (one byte each) and U+FFFE/U+FFFF (`EF BF BE`/`EF BF BF`); surrogates cannot be written.
public enum XMLCharacters {
    @inlinable public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// `utf8` (valid UTF-8) without forbidden characters; the same array when it has none.
    public static func filtered(_ utf8: [UInt8]) -> [UInt8] {
        guard containsForbidden(utf8) else { return utf8 }
        var output = utf8
        removeForbidden(from: &output, startingAt: 0)
        return output
    }

    public static func filtered(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        guard containsForbidden(utf8) else { return text }
        return String(decoding: filtered(utf8), as: UTF8.self)
    }

    /// Removes the forbidden characters from `utf8[start...]` (valid UTF-8, whole characters)
    /// in place; returns how many it removed. Reads each byte once, eight at a time, and
    /// writes nothing when there is nothing to remove (the usual case).
    @discardableResult
    public static func removeForbidden(from utf8: inout [UInt8], startingAt start: Int) -> Int {
        let first = utf8.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { firstForbidden(in: $0, from: start, to: buffer.count) }
        }
        guard var found = first else { return 0 }
        var removed = 0
        var kept = 0
        utf8.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var read = start
            var write = start
            while true {
                // `copyMemory` is a memmove: the regions may overlap (`write` trails `read`).
                UnsafeMutableRawPointer(base + write).copyMemory(from: base + read, byteCount: found.index - read)
                write += found.index - read
                read = found.index + found.length
                removed += 1
                guard let next = firstForbidden(in: base, from: read, to: buffer.count) else { break }
                found = next
            }
            UnsafeMutableRawPointer(base + write).copyMemory(from: base + read, byteCount: buffer.count - read)
            kept = write + buffer.count - read
        }
        utf8.removeLast(utf8.count - kept)
        return removed
    }

    private static func containsForbidden(_ utf8: [UInt8]) -> Bool {
        utf8.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { firstForbidden(in: $0, from: 0, to: buffer.count) != nil } ?? false
        }
    }

    /// The first forbidden character in `start..<end`: where it starts and its length in bytes.
    /// Runs over every byte of every feed, before libxml2, so it is built for the usual case:
    /// a word of eight bytes with no control character and no `EF` lead byte (U+F000–U+FFFF,
    /// rare outside CJK punctuation) costs two word tests; only words that may hold one are
    /// looked at byte by byte, a line break among them. (A test of 32 bytes at a time, with
    /// exact per-byte masks, ran 1% fewer instructions over the benchmark corpus but took 10%
    /// longer in parse + normalise: text with line breaks or non-ASCII letters sent every
    /// 32-byte block down its slow path.)
    static func firstForbidden(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> (index: Int, length: Int)? {
        var from = start
        while let index = ByteScan.firstIndex(
            in: base, from: from, to: end,
            wordMayMatch: { ByteScan.word($0, hasByteBelow: 0x20) || ByteScan.word($0, contains: 0xEF) },
            byteMatches: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0xEF })
        {
            if let length = forbiddenLength(in: base, at: index, end: end) { return (index, length) }
            from = index &+ 1
        }
        return nil
    }

    /// The length of the forbidden character starting at `index`, or `nil` when it is allowed.
    @inline(__always)
    private static func forbiddenLength(in base: UnsafePointer<UInt8>, at index: Int, end: Int) -> Int? {
        let byte = base[index]
        if byte < 0x20 { return byte == 0x09 || byte == 0x0A || byte == 0x0D ? nil : 1 }
        if byte == 0xEF, index + 2 < end, base[index + 1] == 0xBF, base[index + 2] >= 0xBE { return 3 }
        return nil
    }
}
