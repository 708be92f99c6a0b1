@testable import FeedPublishing
import TestSupport
import Testing

/// atom.xml and index.html hold the newest entries while the snapshots are read: what they keep
/// must be exactly what sorting every entry and taking the first `limit` gives.
@Suite("NewestEntries")
struct NewestEntriesTests {
    private func entry(_ feedID: Int64, _ id: String, published: Int64, title: String = "") -> AggregateEntry {
        AggregateEntry(
            feedID: feedID, feedTitle: "feed \(feedID)", feedURL: "https://example.com/\(feedID)", siteLink: nil, id: id,
            title: title, summary: "", permalink: nil, published: published, updated: nil, author: nil, undated: false)
    }

    @Test func keepsWhatSortingEverythingAndTakingTheFirstGives() {
        var random = SeededGenerator.announced()
        for round in 0..<200 {
            let limit = [0, 1, 2, 3, 7, 50][round % 6]
            // Few dates, feeds and ids, so that ties on the date and on the feed are common.
            var seen = Set<String>()
            var all: [AggregateEntry] = []
            for _ in 0..<Int.random(in: 0...400, using: &random) {
                let feedID = Int64.random(in: 1...12, using: &random)
                let id = "item-\(Int.random(in: 0...30, using: &random))"
                guard seen.insert("\(feedID)/\(id)").inserted else { continue }
                all.append(entry(feedID, id, published: Int64.random(in: 1_700_000_000...1_700_000_020, using: &random)))
            }
            var newest = NewestEntries(limit: limit)
            for entry in all { newest.add(entry) }
            let expected = Array(all.sorted(by: NewestEntries.precedes).prefix(limit))
            #expect(newest.entries == expected, "round \(round), limit \(limit), \(all.count) entries")
        }
    }

    @Test func newestFirstThenByFeedThenByID() {
        var newest = NewestEntries(limit: 3)
        for added in [entry(2, "a", published: 10), entry(1, "b", published: 10), entry(1, "a", published: 10), entry(9, "z", published: 11),
                      entry(1, "0", published: 9)] {
            newest.add(added)
        }
        #expect(newest.entries.map { "\($0.feedID)/\($0.id)" } == ["9/z", "1/a", "1/b"])
        #expect(NewestEntries(limit: 0).entries.isEmpty)
    }

    @Test func anEntryGivenTwiceKeepsTheOneAddedFirst() {
        // A feedid published by two shards' records (a feed that moved): the order of equals is
        // the order they were added in, as a stable sort of everything gave it.
        var newest = NewestEntries(limit: 2)
        var all: [AggregateEntry] = []
        for index in 0..<20 { all.append(entry(1, "same", published: 5, title: "copy \(index)")) }
        for added in all { newest.add(added) }
        #expect(newest.entries.map(\.title) == ["copy 0", "copy 1"])
    }
}
