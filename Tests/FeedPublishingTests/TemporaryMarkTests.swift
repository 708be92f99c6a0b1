@testable import FeedPublishing
import Testing

/// A publication's own stale temporaries are told by the last `.tmp-` in their names
/// (``PublishedFiles/temporaryMark(in:)``), found by bytes rather than by Foundation's search.
@Suite("Publication: the temporary mark in a name")
struct TemporaryMarkTests {
    @Test(arguments: [
        ("feed_2.v1.sqlite.tmp-99999", "feed_2.v1.sqlite", "99999"),
        ("a.tmp-1.tmp-2", "a.tmp-1", "2"),
        (".tmp-", "", ""),
        ("é.json.tmp-7-journal", "é.json", "7-journal"),
        ("x.tmp-", "x", ""),
    ])
    func theLastMarkSplitsTheName(name: String, base: String, suffix: String) throws {
        let mark = try #require(PublishedFiles.temporaryMark(in: name))
        #expect(String(name[..<mark.lowerBound]) == base)
        #expect(String(name[mark.upperBound...]) == suffix)
    }

    @Test(arguments: ["", "tmp-", ".tmp", "feed_1.sqlite", "notes.TMP-1", "a.tmp_1", "é"])
    func aNameWithoutTheMarkHasNone(name: String) {
        #expect(PublishedFiles.temporaryMark(in: name) == nil)
    }
}
