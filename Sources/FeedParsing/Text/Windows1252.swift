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
    /// Whether `bytes` are well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
    static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            let base = UnsafeRawPointer(buffer.baseAddress)
            while index < count {
                // ASCII runs, eight bytes at a time: most feed bytes are markup and English text.
                if let base {
                    while index + 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                        index += 8
                    }
                    guard index < count else { break }
                }
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
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
                default: return false
                }
                guard index + length <= count else { return false }
                let second = buffer[index + 1]
                guard second >= lower, second <= upper else { return false }
                for offset in 2..<max(2, length) where buffer[index + offset] & 0xC0 != 0x80 { return false }
                index += length
            }
            return true
        }
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
