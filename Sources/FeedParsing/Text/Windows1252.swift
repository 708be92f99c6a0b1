/// windows-1252 to UTF-8, with WHATWG's mapping (the five undefined bytes become the C1
/// controls of the same value), so that every byte sequence decodes to something.
enum Windows1252 {
    private static let high: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// The Unicode scalar for a byte.
    static func scalar(for byte: UInt8) -> UInt32 {
        (0x80...0x9F).contains(byte) ? UInt32(high[Int(byte - 0x80)]) : UInt32(byte)
    }

    static func decode(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                UTF8Validation.append(scalar: scalar(for: byte), to: &output)
            }
        }
        return output
    }
}

enum UTF8Validation {
    /// What the bytes at one position hold.
    enum Sequence: Equatable {
        /// A well-formed sequence of this many bytes.
        case valid(Int)
        /// The start of a well-formed sequence that the bytes end inside.
        case incomplete
        /// Ill-formed: this many bytes (the maximal subpart, as Unicode counts replacements).
        case invalid(Int)
    }

    /// The sequence at `index` (no overlongs, no surrogates, nothing above U+10FFFF).
    @inline(__always)
    static func sequence(in base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Sequence {
        let lead = base[index]
        if lead < 0x80 { return .valid(1) }
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, lower) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, upper) = (3, 0x9F)
        case 0xF0: (length, lower) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, upper) = (4, 0x8F)
        default: return .invalid(1)
        }
        for offset in 1..<length {
            guard index + offset < count else { return .incomplete }
            let byte = base[index + offset]
            let (low, high) = offset == 1 ? (lower, upper) : (0x80, 0xBF)
            guard byte >= low, byte <= high else { return .invalid(offset) }
        }
        return .valid(length)
    }

    /// The index of the first non-ASCII byte at or after `index`, or `count`.
    @inline(__always)
    static func endOfASCII(in base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        var index = index
        while index + 8 <= count, UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
            index += 8
        }
        while index < count, base[index] < 0x80 { index += 1 }
        return index
    }

    /// Whether `bytes` are well-formed UTF-8; with `allowingCutEnd`, a sequence the bytes end
    /// inside counts as well-formed (the rest is still to come).
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, allowingCutEnd: Bool = false) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        while true {
            index = endOfASCII(in: base, from: index, count: bytes.count)
            guard index < bytes.count else { return true }
            switch sequence(in: base, at: index, count: bytes.count) {
            case .valid(let length): index += length
            case .incomplete: return allowingCutEnd
            case .invalid: return false
            }
        }
    }

    static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }

    static func append(scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (scalar >> 6)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | (scalar >> 12)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (scalar >> 18)))
            output.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
