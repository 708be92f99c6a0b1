import TestSupport
import Testing

@testable import FeedBasics

@Suite("XMLCharacters: what XML 1.0 forbids goes, everything else stays")
struct XMLCharactersTests {
    @Test("each forbidden character is removed, each allowed one kept", arguments: [
        ("a\u{0}b", "ab"),
        ("a\u{1}\u{8}\u{B}\u{C}\u{E}\u{1F}b", "ab"),
        ("a\u{FFFE}b\u{FFFF}c", "abc"),
        ("tab\tLF\nCR\r", "tab\tLF\nCR\r"),
        ("\u{FFFD}\u{FF0C}\u{EFFF}\u{F000}\u{7F}\u{80}\u{9F}\u{10FFFF}", "\u{FFFD}\u{FF0C}\u{EFFF}\u{F000}\u{7F}\u{80}\u{9F}\u{10FFFF}"),
        ("\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}", ""),
        ("", ""),
    ])
    func removesForbidden(text: String, expected: String) {
        var bytes = Array(text.utf8)
        let removed = XMLCharacters.removeForbidden(from: &bytes, startingAt: 0)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(removed == text.unicodeScalars.count - expected.unicodeScalars.count)
        #expect(XMLCharacters.filtered(text) == expected)
    }

    @Test func bytesBeforeTheStartAreLeftAlone() {
        var bytes = Array("\u{0}kept\u{0}gone".utf8)
        #expect(XMLCharacters.removeForbidden(from: &bytes, startingAt: 1) == 1)
        #expect(bytes == Array("\u{0}keptgone".utf8))
    }

    /// The scan tests 32 bytes, then 8, then one at a time: a character at every position, a
    /// three-byte one across every boundary, is found.
    @Test func foundAtEveryPositionOfTheScan() {
        for forbidden in ["\u{0}", "\u{1B}", "\u{FFFF}"] {
            for position in 0..<80 {
                let text = String(repeating: "x", count: position) + forbidden + String(repeating: "y", count: 80 - position)
                #expect(XMLCharacters.filtered(text) == String(repeating: "x", count: position) + String(repeating: "y", count: 80 - position))
            }
        }
    }

    @Test func agreesWithAScalarFilterOnRandomText() {
        var generator = SeededGenerator.announced()
        let alphabet: [Unicode.Scalar] = ["a", "\u{0}", "\u{1}", "\t", "\n", "\r", "\u{1F}", " ", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{FF0C}", "é", "😀"]
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...90, using: &generator) {
                text.append(Bool.random(using: &generator) ? "b" : alphabet[Int.random(in: alphabet.indices, using: &generator)])
            }
            let expected = String(String.UnicodeScalarView(text.filter(XMLCharacters.isAllowed)))
            var bytes = Array(String(text).utf8)
            XMLCharacters.removeForbidden(from: &bytes, startingAt: 0)
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(String(text).debugDescription)")
        }
    }
}
