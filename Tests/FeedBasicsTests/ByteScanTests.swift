import TestSupport
import Testing

@testable import FeedBasics

@Suite("ByteScan: eight bytes at a time, the same answers as one at a time")
struct ByteScanTests {
    @Test func wordTestsFindEveryByte() {
        for byte in UInt8.min...UInt8.max {
            for position in 0..<8 {
                let word = (0x4141_4141_4141_4141 as UInt64) & ~(0xFF << (8 * UInt64(position))) | UInt64(byte) << (8 * UInt64(position))
                #expect(ByteScan.word(word, contains: byte))
                if byte < 0x20 { #expect(ByteScan.word(word, hasByteBelow: 0x20)) }
            }
        }
        #expect(!ByteScan.word(0x4141_4141_4141_4141, contains: 0x26))
        #expect(!ByteScan.word(0xFFEE_8020_7F41_3021, hasByteBelow: 0x20))
    }

    @Test func firstIndexAgreesWithAByteLoop() {
        var generator = SeededGenerator.announced()
        let alphabet: [UInt8] = [0x41, 0x20, 0x0A, 0x09, 0x01, 0x26, 0x3C, 0xEF, 0xBF, 0xC3, 0xA9, 0x7F]
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Bool.random(using: &generator) ? 0x61 : alphabet.randomElement(using: &generator)!
            }
            let start = Int.random(in: 0...bytes.count, using: &generator)
            let special: (UInt8) -> Bool = { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A || $0 == 0x26 }
            let found = bytes.withUnsafeBufferPointer { buffer in
                ByteScan.firstIndex(
                    in: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, from: start, to: buffer.count,
                    wordMayMatch: { ByteScan.word($0, hasByteBelow: 0x20) || ByteScan.word($0, contains: 0x26) },
                    byteMatches: special)
            }
            #expect(found == bytes[start...].firstIndex(where: special), "\(bytes) from \(start)")
        }
    }

    @Test func escapingAgreesWithAByteLoop() {
        var generator = SeededGenerator.announced()
        let alphabet: [UInt8] = Array("a&<>\"\n\r é".utf8)
        for _ in 0..<2_000 {
            let text = String(decoding: (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
            var output: [UInt8] = []
            Markup.appendEscaped(text, to: &output, attribute: true, lineBreaks: true)
            var expected = ""
            for character in text.unicodeScalars {
                switch character {
                case "&": expected += "&amp;"
                case "<": expected += "&lt;"
                case ">": expected += "&gt;"
                case "\"": expected += "&quot;"
                case "\n": expected += "<br>"
                case "\r": break
                default: expected.unicodeScalars.append(character)
                }
            }
            #expect(String(decoding: output, as: UTF8.self) == expected, "\(text)")
        }
    }
}
