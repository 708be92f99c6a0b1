import TestSupport
import Testing

@testable import FeedParsing

@Suite("Character encoding: BOM, transport, declaration, valid UTF-8, windows-1252")
struct CharacterEncodingTests {
    let cafeUTF8: [UInt8] = Array("<t>café</t>".utf8)
    let cafeLatin1: [UInt8] = Array("<t>caf".utf8) + [0xE9] + Array("</t>".utf8)

    @Test func aUTF8ByteOrderMarkIsStrippedAndWins() {
        let decoded = CharacterEncoding.decode([0xEF, 0xBB, 0xBF] + cafeUTF8, transportCharset: "iso-8859-1")
        #expect(decoded.utf8 == cafeUTF8)
        #expect(decoded.name == "UTF-8")
    }

    @Test func aUTF16ByteOrderMarkIsTranscoded() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<t>café</t>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let decoded = CharacterEncoding.decode(bytes)
        #expect(decoded.utf8 == cafeUTF8)
        #expect(decoded.name == "UTF-16LE")
    }

    @Test func bomlessUTF16IsSniffedFromTheDeclaration() {
        var bytes: [UInt8] = []
        for unit in "<?xml version=\"1.0\" encoding=\"UTF-16\"?><t>é</t>".utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let decoded = CharacterEncoding.decode(bytes)
        #expect(String(decoding: decoded.utf8, as: UTF8.self).hasSuffix("<t>é</t>"))
    }

    @Test func theTransportCharsetDecodesBytesThatAreNotUTF8() {
        // "Привет" in KOI8-R.
        let koi8: [UInt8] = Array("<t>".utf8) + [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4] + Array("</t>".utf8)
        let decoded = CharacterEncoding.decode(koi8, transportCharset: "KOI8-R")
        #expect(String(decoding: decoded.utf8, as: UTF8.self) == "<t>Привет</t>")
        #expect(decoded.name == "KOI8-R")
    }

    @Test func theTransportCharsetWinsOverTheDeclaration() {
        let bytes: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"KOI8-R\"?><t>".utf8) + [0xE9] + Array("</t>".utf8)
        let decoded = CharacterEncoding.decode(bytes, transportCharset: "ISO-8859-1")
        #expect(String(decoding: decoded.utf8, as: UTF8.self).hasSuffix("<t>é</t>"))
    }

    @Test func theDeclarationIsUsedWhenThereIsNoTransportCharset() {
        let bytes: [UInt8] = Array("<?xml version='1.0' encoding='ISO-8859-1'?><t>caf".utf8) + [0xE9, 0x80] + Array("</t>".utf8)
        let decoded = CharacterEncoding.decode(bytes)
        // ISO-8859-1 is read as windows-1252, as browsers do: 0x80 is the euro sign.
        #expect(String(decoding: decoded.utf8, as: UTF8.self).hasSuffix("<t>café€</t>"))
        #expect(decoded.name == "windows-1252")
    }

    @Test func validUTF8StaysUTF8WhateverTheLabelSays() {
        let bytes = Array("<?xml version='1.0' encoding='ISO-8859-1'?><t>café</t>".utf8)
        let decoded = CharacterEncoding.decode(bytes, transportCharset: "iso-8859-1")
        #expect(decoded.utf8 == bytes)
        #expect(decoded.name == "UTF-8")
        #expect(decoded.notes.first?.contains("valid UTF-8") == true)
    }

    @Test func latin1DeclaredAsUTF8FallsBackToWindows1252InsteadOfMojibake() {
        let bytes: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><t>".utf8) + [0xE9, 0x20, 0x93, 0x94] + Array("</t>".utf8)
        let decoded = CharacterEncoding.decode(bytes)
        let text = String(decoding: decoded.utf8, as: UTF8.self)
        #expect(text.hasSuffix("<t>é “”</t>"))
        #expect(!text.contains("\u{FFFD}"))
        #expect(decoded.name == "windows-1252")
    }

    @Test func anUnknownLabelFallsBackToWindows1252() {
        let decoded = CharacterEncoding.decode(cafeLatin1, transportCharset: "x-no-such-charset")
        #expect(decoded.utf8 == cafeUTF8)
    }

    @Test func everyByteSequenceDecodesWithoutCrashing() {
        var generator = SeededGenerator.announced()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let decoded = CharacterEncoding.decode(bytes)
            #expect(UTF8Validation.isValid(decoded.utf8))
        }
    }

    @Test("UTF-8 validation rejects what the standard forbids", arguments: [
        ([0xC0, 0x80] as [UInt8], false),  // overlong NUL
        ([0xED, 0xA0, 0x80], false),  // surrogate
        ([0xF4, 0x90, 0x80, 0x80], false),  // above U+10FFFF
        ([0xE2, 0x82], false),  // truncated
        ([0xE2, 0x82, 0xAC], true),  // €
        ([0xF0, 0x9F, 0x98, 0x80], true),  // 😀
    ])
    func utf8Validation(bytes: [UInt8], valid: Bool) {
        #expect(UTF8Validation.isValid(bytes) == valid)
    }
}
