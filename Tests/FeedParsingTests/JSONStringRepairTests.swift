import FeedModel
import Testing

@testable import FeedParsing

/// Issue 38: Foundation refuses a whole JSON string over one lone surrogate escape, and JSON
/// Feed's lenient fields then read as missing, so `"summary": "\ud800 …"` was an empty summary.
@Suite("JSON Feed: a bad character costs that character, not its field")
struct JSONStringRepairTests {
    /// The text of `"summary"` in a one-item JSON Feed whose summary is written `escaped`.
    static func summary(_ escaped: String) throws -> String? {
        let json = #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "i", "summary": ""# + escaped + #""}]}"#
        return try FeedParser.parse(Array(json.utf8)).entries.first?.summary?.value
    }

    @Test("each rule, one row per branch", arguments: [
        (#"s\ud800 rest"#, "s rest"),  // a lone high surrogate
        (#"s\uDBFF"#, "s"),  // … at the end of the string
        (#"\udc00x"#, "x"),  // a lone low surrogate
        (#"\ud800\u0041"#, "A"),  // a high one followed by something else
        (#"\udc00\ud800"#, ""),  // a pair in the wrong order
        (#"\ud800\ud83d\ude00"#, "😀"),  // a lone one, then a pair
        (#"\ud83d\ude00"#, "😀"),  // a pair stays
        (#"a\u0000b\u001Fc\uFFFEd\uffffe"#, "abcde"),  // escapes of what XML forbids
        (#"a\bb\fc"#, "abc"),
        (#"a\tb\nc\rd\u0009e"#, "a\tb\nc\rd\te"),  // escapes of what XML allows
        ("a\tb\nc\rd", "a\tb\nc\rd"),  // raw tab, LF, CR: escaped, so kept
        (#"\\ud800"#, #"\ud800"#),  // an escaped backslash, then text
        (#"caf\u00e9 \"q\" \/"#, "café \"q\" /"),
    ])
    func rules(escaped: String, expected: String) throws {
        #expect(try Self.summary(escaped) == expected)
    }

    @Test("a lone surrogate in any field", arguments: [
        "id", "url", "external_url", "title", "summary", "content_html", "content_text", "image", "tags", "authors", "feed title",
    ])
    func anyField(field: String) throws {
        let value = #""a\ud800b""#
        var members = [("id", #""i""#), ("title", #""t""#)]
        var feedTitle = #""F""#
        switch field {
        case "tags": members.append((field, "[" + value + "]"))
        case "authors": members.append((field, #"[{"name": "# + value + "}]"))
        case "feed title": feedTitle = value
        default: members = members.filter { $0.0 != field } + [(field, value)]
        }
        let item = "{" + members.map { #"""# + $0.0 + #"": "# + $0.1 }.joined(separator: ", ") + "}"
        let json = #"{"version": "https://jsonfeed.org/version/1.1", "title": "# + feedTitle + #", "items": ["# + item + "]}"
        let feed = try FeedParser.parse(Array(json.utf8))
        let entry = try #require(feed.entries.first)
        let read: String? = switch field {
        case "id": entry.nativeID
        case "url": entry.itemLink?.href
        case "external_url": entry.originalLink?.href
        case "title": entry.title?.value
        case "summary": entry.summary?.value
        case "content_html", "content_text": entry.content?.value
        case "image": entry.thumbnails.first?.href
        case "tags": entry.categories.first?.term
        case "authors": entry.authors.first?.name
        default: feed.title?.value
        }
        #expect(read == "ab")
    }

    @Test func aRawNULInAJSONStringIsRemovedToo() throws {
        let json = Array(#"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "i", "title": "a"#.utf8) + [0]
            + Array(#"b"}, {"id": "j"}]}"#.utf8)
        let feed = try FeedParser.parse(json)
        #expect(feed.entries.map(\.title?.value) == ["ab", nil])
    }

    @Test func anItemCutAnywhereReadsTheSame() throws {
        let json = Array(#"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "i\ud800", "summary": "x\ud83d\ude00\udc00"}]}"#.utf8)
        for size in [1, 3, 7] {
            let feed = try StreamingTests.streamed(json, chunks: [size]).get()
            #expect(feed.entries.map(\.nativeID) == ["i"])
            #expect(feed.entries.map(\.summary?.value) == ["x😀"])
        }
    }

    @Test func nothingToRepairIsNoCopy() {
        #expect(JSONStringRepair.repaired(Array(#"{"a": "b\n\u00e9", "c": [1, 2]}"#.utf8)) == nil)
        #expect(JSONStringRepair.repaired(Array("{\n  \"a\": \"b\"\n}".utf8)) == nil)  // white space between values
        #expect(JSONStringRepair.repaired(Array(#"{"a": "\u12", "b": "\"#.utf8)) == nil)  // not JSON: the decoder's to judge
    }
}
