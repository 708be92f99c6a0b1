import FeedModel
@testable import FeedStorage
import Foundation
import TestSupport
import Testing

/// The canonical JSON of `items.enclosures_json`, `categories_json` and `authors_json`,
/// byte for byte as SPEC-40 B defines it.
@Suite("Reader fields: canonical JSON")
struct ReaderFieldsJSONTests {
    private func text(_ bytes: [UInt8]?) -> String? {
        bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func keysComeInTheirOrderAndAbsentOnesAreOmittedNeverNull() {
        let enclosures = [
            Enclosure(url: "https://cdn.example/a.mp3", type: "audio/mpeg", length: 12_345, duration: 3_600),
            Enclosure(url: "https://cdn.example/b.mp4"),
            Enclosure(url: "https://cdn.example/c.pdf", length: 0, duration: -1),
        ]
        #expect(text(ReaderFieldsJSON.enclosures(enclosures)) == #"[{"url":"https://cdn.example/a.mp3","type":"audio/mpeg","length":12345,"duration":3600},{"url":"https://cdn.example/b.mp4"},{"url":"https://cdn.example/c.pdf"}]"#)
        #expect(text(ReaderFieldsJSON.enclosures([Enclosure(url: "https://e.example/x", type: "", length: 1, duration: 0)])) == #"[{"url":"https://e.example/x","length":1,"duration":0}]"#)
        let categories = [EntryCategory(term: "swift", label: "Swift", scheme: "https://tags.example/"), EntryCategory(term: "linux", scheme: "x")]
        #expect(text(ReaderFieldsJSON.categories(categories)) == #"[{"term":"swift","label":"Swift","scheme":"https://tags.example/"},{"term":"linux","scheme":"x"}]"#)
        let people = [Person(name: "Ann", email: "ann@site.example", uri: "https://ann.example/"), Person(email: "b@site.example"), Person(uri: "https://c.example/")]
        #expect(text(ReaderFieldsJSON.authors(people)) == #"[{"name":"Ann","email":"ann@site.example","uri":"https://ann.example/"},{"email":"b@site.example"},{"uri":"https://c.example/"}]"#)
        // What the shipped schemas exclude is left out: a person with nothing, a category without a term.
        #expect(ReaderFieldsJSON.authors([Person()]) == nil)
        #expect(text(ReaderFieldsJSON.authors([Person(), Person(name: "")])) == #"[{"name":""}]"#)
        #expect(ReaderFieldsJSON.categories([EntryCategory(term: "", label: "L")]) == nil)
    }

    @Test func noElementsIsNullNotAnEmptyArray() {
        #expect(ReaderFieldsJSON.enclosures([]) == nil)
        #expect(ReaderFieldsJSON.categories([]) == nil)
        #expect(ReaderFieldsJSON.authors([]) == nil)
    }

    @Test func stringsAreEscapedExactlyAsJSONRequiresAndNoMore() {
        let cases: [(String, String)] = [
            ("plain", #""plain""#),
            (#"say "hi""#, #""say \"hi\"""#),
            (#"back\slash"#, #""back\\slash""#),
            ("a/b/c", #""a/b/c""#),
            ("line\nfeed\rreturn\ttab\u{08}bs\u{0C}ff", #""line\nfeed\rreturn\ttab\bbs\fff""#),
            ("\u{00}\u{01}\u{1F}\u{0B}\u{1A}", #""\u0000\u0001\u001f\u000b\u001a""#),
            ("caf\u{E9} \u{65E5}\u{672C} \u{1F600} \u{7F} \u{2028} \u{FEFF}", "\"caf\u{E9} \u{65E5}\u{672C} \u{1F600} \u{7F} \u{2028} \u{FEFF}\""),
            ("", #""""#),
        ]
        for (input, expected) in cases {
            var bytes: [UInt8] = []
            ReaderFieldsJSON.appendString(input, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(input.debugDescription)")
        }
        // Non-ASCII goes out as its UTF-8 bytes, not as \u escapes.
        var bytes: [UInt8] = []
        ReaderFieldsJSON.appendString("\u{E9}", to: &bytes)
        #expect(bytes == [0x22, 0xC3, 0xA9, 0x22])
    }

    /// Random strings of every kind of character: what a JSON parser reads back is what was
    /// written, there is no white space outside strings, and the same input gives the same bytes.
    @Test func randomValuesReadBackAsWrittenByARealJSONParser() throws {
        var random = SeededGenerator.announced()
        let pool: [Unicode.Scalar] = (0..<0x80).compactMap(Unicode.Scalar.init)
            // Not U+FEFF: Foundation's parser on Linux drops some of them from strings (its
            // exact bytes are checked above with the other non-ASCII characters).
            + ["\u{E9}", "\u{2028}", "\u{10FFFF}", "\u{1F600}", "\u{65E5}", "/", "\"", "\\"]
        func string() -> String {
            String(String.UnicodeScalarView((0..<Int.random(in: 0...12, using: &random)).map { _ in pool.randomElement(using: &random) ?? "a" }))
        }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &random) ? value() : nil }
        for _ in 0..<300 {
            let enclosures = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                Enclosure(
                    url: string(), type: maybe("t" + string()), length: maybe(Int64.random(in: .min ... .max, using: &random)),
                    duration: maybe(Int64.random(in: -5...100_000, using: &random)))
            }
            let people = (0..<Int.random(in: 1...3, using: &random)).map { _ in Person(name: maybe(string()), email: maybe(string()), uri: maybe(string())) }
                .filter { $0.name != nil || $0.email != nil || $0.uri != nil }
            guard !people.isEmpty else { continue }
            let bytes = try #require(ReaderFieldsJSON.enclosures(enclosures))
            #expect(ReaderFieldsJSON.enclosures(enclosures) == bytes)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
            #expect(parsed.count == enclosures.count)
            for (object, enclosure) in zip(parsed, enclosures) {
                #expect(object["url"] as? String == enclosure.url)
                #expect(object["type"] as? String == enclosure.type)
                let length = enclosure.length.flatMap { $0 >= 1 ? $0 : nil }
                let duration = enclosure.duration.flatMap { $0 >= 0 ? $0 : nil }
                #expect((object["length"] as? NSNumber)?.int64Value == length)
                #expect((object["duration"] as? NSNumber)?.int64Value == duration)
                var present: Set<String> = ["url"]
                if enclosure.type != nil { present.insert("type") }
                if length != nil { present.insert("length") }
                if duration != nil { present.insert("duration") }
                #expect(Set(object.keys) == present, "absent keys are omitted")
            }
            let authors = try #require(ReaderFieldsJSON.authors(people))
            let readPeople = try #require(try JSONSerialization.jsonObject(with: Data(authors)) as? [[String: String]])
            #expect(readPeople.map { Person(name: $0["name"], email: $0["email"], uri: $0["uri"]) } == people)
            // Outside strings, only structure: the bytes with every string removed hold no white space.
            #expect(!withoutStrings(authors).contains { [0x20, 0x0A, 0x0D, 0x09].contains($0) })
        }
    }

    /// The bytes with every JSON string (quotes included) removed.
    private func withoutStrings(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
            } else if byte == 0x22 {
                inString = true
            } else {
                out.append(byte)
            }
        }
        return out
    }
}
