/// Finding the next interesting byte eight at a time (SWAR: one 64-bit word holds eight
/// bytes). Text in feeds is long runs of ordinary bytes between rare special ones (`&`, `<`,
/// a control character); testing a whole word for "might hold one" and looking at single
/// bytes only in the words that might, makes those scans several times cheaper than a loop
/// over bytes. Inlinable: the word and byte tests are closures the caller's compiler inlines.
public enum ByteScan {
    /// The index of the first byte in `start..<end` of `base` that `byteMatches`, or `nil`.
    /// `wordMayMatch` must be true of every word holding such a byte (false positives only
    /// cost time).
    @inlinable
    public static func firstIndex(
        in base: UnsafePointer<UInt8>, from start: Int, to end: Int,
        wordMayMatch: (UInt64) -> Bool, byteMatches: (UInt8) -> Bool
    ) -> Int? {
        var index = start
        while index + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if wordMayMatch(word) {
                for offset in 0..<8 where byteMatches(base[index + offset]) { return index + offset }
            }
            index += 8
        }
        while index < end {
            if byteMatches(base[index]) { return index }
            index += 1
        }
        return nil
    }

    /// Whether any byte of `word` equals `byte`.
    @inlinable
    public static func word(_ word: UInt64, contains byte: UInt8) -> Bool {
        hasZeroByte(word ^ (ones &* UInt64(byte)))
    }

    /// Whether any byte of `word` is below `limit` (at most 0x80).
    @inlinable
    public static func word(_ word: UInt64, hasByteBelow limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    @inlinable
    static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highBits != 0
    }

    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highBits: UInt64 = 0x8080_8080_8080_8080
}
