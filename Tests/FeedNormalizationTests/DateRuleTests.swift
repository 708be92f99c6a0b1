import FeedModel
import Testing

@testable import FeedNormalization

/// Issue 38: an entry dated 9999 stayed at the top of `atom.xml` for good, and Go's zero time
/// read as "no date" while `1900-01-01` was kept. One rule now, for published and updated.
@Suite("dates: after 1970 and at most a day after the feed was read, else missing")
struct DateRuleTests {
    /// 2023-11-14T22:13:20Z.
    static let now: Int64 = 1_700_000_000

    @Test("one row per side of each bound", arguments: [
        (nil, nil),
        (Int64.min, nil),
        (-62_135_596_800, nil),  // 0001-01-01, Go's zero time
        (-2_208_988_800, nil),  // 1900-01-01
        (-1, nil),
        (0, nil),  // the epoch: a zero timestamp
        (1, 1),
        (1_000_000_000, 1_000_000_000),
        (now, now),
        (now + 86_400, now + 86_400),  // a wrong zone, a clock ahead
        (now + 86_401, nil),
        (253_402_300_799, nil),  // 9999-12-31T23:59:59Z
        (Int64.max, nil),
    ] as [(Int64?, Int64?)])
    func rule(date: Int64?, kept: Int64?) {
        #expect(DateRule(readAt: Self.now).kept(date) == kept)
    }

    @Test func theBoundNeverOverflows() {
        #expect(DateRule(readAt: .max).kept(.max) == .max)
        #expect(DateRule(readAt: .max - 1).latest == .max)
        #expect(DateRule(readAt: .min).kept(1) == nil)
    }

    @Test("applied to published and updated alike, before pubdate falls back", arguments: [
        ("9999-12-31T23:59:59Z", nil, nil, nil),
        ("Fri, 31 Dec 9999 23:59:59 GMT", nil, nil, nil),
        ("0001-01-01T00:00:00Z", nil, nil, nil),
        ("Mon, 01 Jan 0001 00:00:00 +0000", nil, nil, nil),
        ("1900-01-01T00:00:00Z", nil, nil, nil),
        ("1970-01-01T00:00:00Z", nil, nil, nil),
        ("1970-01-01T00:00:01Z", nil, 1, nil),
        ("2023-11-15T22:13:20Z", nil, 1_700_086_400, nil),  // a day ahead: kept
        ("2023-11-15T22:13:21Z", nil, nil, nil),
        ("9999-12-31T23:59:59Z", "2023-11-01T00:00:00Z", 1_698_796_800, 1_698_796_800),  // published set aside: updated
        ("2023-11-01T00:00:00Z", "9999-12-31T23:59:59Z", 1_698_796_800, nil),
        ("not a date", "2999-01-01T00:00:00Z", nil, nil),
    ] as [(String, String?, Int64?, Int64?)])
    func throughTheNormaliser(published: String, updated: String?, pubdate: Int64?, keptUpdated: Int64?) throws {
        let feed = try normalized(
            "<feed xmlns='http://www.w3.org/2005/Atom'><entry><id>e</id><published>\(published)</published>"
                + (updated.map { "<updated>\($0)</updated>" } ?? "") + "</entry></feed>",
            now: Self.now)
        let entry = try #require(feed.entries.first)
        #expect(entry.pubdate == pubdate)
        #expect(entry.updated == keptUpdated)
    }

    @Test func jsonFeedDatesFollowTheSameRule() throws {
        let json = #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "a", "date_published": "9999-01-01T00:00:00Z", "date_modified": "0001-01-01T00:00:00Z"}]}"#
        let feed = FeedNormalizer.normalize(try parseFeed(json), feedURL: nil, now: Self.now)
        #expect(feed.entries.map(\.pubdate) == [nil])
        #expect(feed.entries.map(\.updated) == [nil])
    }

    /// Duplicate ids are told apart by the date the feed wrote, so the id a duplicate gets does
    /// not depend on when the feed was read, though whether its date is kept does.
    @Test func anIDDoesNotDependOnTheTimeOfReading() throws {
        let items = """
            <rss><channel><item><guid>g</guid><title>T</title><pubDate>Wed, 01 Nov 2023 00:00:00 GMT</pubDate></item>
            <item><guid>g</guid><title>T</title><pubDate>Fri, 31 Dec 9999 23:59:59 GMT</pubDate></item></channel></rss>
            """
        let read2023 = try normalized(items, now: Self.now)
        let readIn10000 = try normalized(items, now: 253_402_400_000)
        #expect(read2023.entries.count == 2)
        #expect(read2023.entries.map(\.id) == readIn10000.entries.map(\.id))
        #expect(read2023.entries.map(\.pubdate) == [1_698_796_800, nil])
        #expect(readIn10000.entries.map(\.pubdate) == [1_698_796_800, 253_402_300_799])
    }
}
