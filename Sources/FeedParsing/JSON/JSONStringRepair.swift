import FeedBasics

/// Repairs the strings of a JSON text before Foundation decodes it, so that one bad character
/// costs that character and not the field: Foundation refuses a whole string over one of them,
/// and JSON Feed's lenient fields then read as missing (a lone `\ud800` emptied a summary; in
/// an id, title or URL it lost those). Inside strings:
/// - an escaped surrogate that is not half of a pair (a high one not followed by a low one, a
///   low one on its own) is removed;
/// - an escape of a character XML 1.0 forbids (`\u0000`, `\b`, `\f`, `\uFFFE`, `\uFFFF`) is
///   removed, as a numeric reference to one is in XML (``LexicalRepair``): the entries are
///   written out again as XML (`atom.xml`);
/// - a raw tab, LF or CR (JSON wants them escaped) is escaped: the character stays. A raw
///   character XML forbids does not get here (``StreamingDecoder`` removed it); one that did
///   would be removed.
///
/// Anything else is left as written, what is not JSON included, for the decoder to judge.
enum JSONStringRepair {
    /// `json` repaired, or `nil` when it needs nothing.
    static func repaired(_ json: [UInt8]) -> [UInt8]? {
        json.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var repair = Pass(base: base, count: buffer.count)
            return repair.run()
        }
    }

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    private struct Pass {
        let base: UnsafePointer<UInt8>
        let count: Int
        var output: [UInt8] = []
        var changed = false
        var copiedUpTo = 0

        init(base: UnsafePointer<UInt8>, count: Int) {
            (self.base, self.count) = (base, count)
        }

        mutating func run() -> [UInt8]? {
            var inString = false
            var index = 0
            while let found = ByteScan.firstIndex(
                in: base, from: index, to: count,
                wordMayMatch: {
                    ByteScan.word($0, contains: quote) || ByteScan.word($0, contains: backslash) || ByteScan.word($0, hasByteBelow: 0x20)
                },
                byteMatches: { $0 == quote || $0 == backslash || $0 < 0x20 })
            {
                index = found + 1
                let byte = base[found]
                guard inString else {
                    inString = byte == quote
                    continue
                }
                switch byte {
                case quote:
                    inString = false
                case backslash:
                    let (length, keep) = escape(at: found)
                    if !keep { replace(found..<found + length, with: []) }
                    index = found + length
                case 0x09:
                    replace(found..<index, with: [backslash, UInt8(ascii: "t")])
                case 0x0A:
                    replace(found..<index, with: [backslash, UInt8(ascii: "n")])
                case 0x0D:
                    replace(found..<index, with: [backslash, UInt8(ascii: "r")])
                default:
                    replace(found..<index, with: [])
                }
            }
            guard changed else { return nil }
            output.append(contentsOf: UnsafeBufferPointer(start: base + copiedUpTo, count: count - copiedUpTo))
            return output
        }

        private mutating func replace(_ range: Range<Int>, with replacement: [UInt8]) {
            if !changed {
                changed = true
                output.reserveCapacity(count + 16)
            }
            output.append(contentsOf: UnsafeBufferPointer(start: base + copiedUpTo, count: range.lowerBound - copiedUpTo))
            output.append(contentsOf: replacement)
            copiedUpTo = range.upperBound
        }

        /// The escape at `index` (a backslash in a string): its length, and whether it stays.
        private func escape(at index: Int) -> (length: Int, keep: Bool) {
            guard index + 1 < count else { return (1, true) }
            switch base[index + 1] {
            case UInt8(ascii: "b"), UInt8(ascii: "f"):
                return (2, false)
            case UInt8(ascii: "u"):
                guard let unit = codeUnit(at: index + 2) else { return (2, true) }
                switch unit {
                case 0xD800...0xDBFF:
                    let paired = index + 7 < count && base[index + 6] == backslash && base[index + 7] == UInt8(ascii: "u")
                        && codeUnit(at: index + 8).map { (0xDC00...0xDFFF).contains($0) } == true
                    return paired ? (12, true) : (6, false)
                case 0xDC00...0xDFFF:
                    return (6, false)
                default:
                    return (6, Unicode.Scalar(unit).map(XMLCharacters.isAllowed) ?? false)
                }
            default:
                return (2, true)
            }
        }

        /// The four hex digits at `index` as a UTF-16 code unit.
        private func codeUnit(at index: Int) -> UInt16? {
            guard index + 4 <= count else { return nil }
            var value: UInt16 = 0
            for offset in 0..<4 {
                let raw = base[index + offset]
                let byte = raw >= UInt8(ascii: "A") ? raw | 0x20 : raw  // letters lower-cased
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
            }
            return value
        }
    }
}
