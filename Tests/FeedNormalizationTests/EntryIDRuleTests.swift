import FeedBasics
import FeedModel
import Testing

@testable import FeedNormalization

@Suite("id: native, else permalink, else a namespaced identifier, else content hash; never empty, stable")
struct EntryIDRuleTests {
    private func entry(id: String? = nil, title: String? = "T", date: String? = "2003-12-13", summary: String? = "S") -> ParsedEntry {
        var entry = ParsedEntry()
        entry.nativeID = id
        entry.title = title.map { FeedText($0, kind: .text) }
        entry.publishedText = date
        entry.summary = summary.map { FeedText($0, kind: .html) }
        return entry
    }

    @Test func theNativeIDIsTrimmedButOtherwiseExact() {
        let result = EntryIDRule.id(for: entry(id: "  HTTP://Example.com/Post?A=1#X \n"), permalink: "https://other/")
        #expect(result.id == "HTTP://Example.com/Post?A=1#X")
        #expect(result.source == .native)
    }

    @Test(arguments: [nil, "", "   "])
    func withoutANativeIDThePermalink(id: String?) {
        let result = EntryIDRule.id(for: entry(id: id), permalink: "https://e.com/p")
        #expect(result.id == "https://e.com/p")
        #expect(result.source == .permalink)
    }

    @Test func withNeitherAStableHashOfTitleDateAndSummary() {
        let first = EntryIDRule.id(for: entry(), permalink: nil)
        let again = EntryIDRule.id(for: entry(), permalink: nil)
        #expect(first.source == .contentHash)
        #expect(first.id == again.id)
        #expect(first.id.hasPrefix("urn:feedmill:entry:"))
        #expect(first.id.count == "urn:feedmill:entry:".count + 32)
        // Pinned: the hash must never change between releases, or stored entries would duplicate.
        #expect(first.id == "urn:feedmill:entry:" + String(SHA256.hexDigest("T\u{1F}2003-12-13\u{1F}S").prefix(32)))
        #expect(EntryIDRule.id(for: entry(title: "Other"), permalink: nil).id != first.id)
        #expect(EntryIDRule.id(for: entry(date: "2004"), permalink: nil).id != first.id)
        #expect(EntryIDRule.id(for: entry(summary: "Other"), permalink: nil).id != first.id)
    }

    /// YouTube's `yt:videoId` (issue 50): the id of an entry with no native id and no
    /// permalink, below both so that no id stored before it was read changes.
    @Test func aNamespacedIdentifierAfterThePermalinkBeforeTheHash() {
        var video = entry()
        video.namespacedID = " yt:video:abc "
        #expect(EntryIDRule.id(for: video, permalink: nil) == ("yt:video:abc", .namespaced))
        #expect(EntryIDRule.id(for: video, permalink: "https://e.com/p") == ("https://e.com/p", .permalink))
        video.nativeID = "yt:video:native"
        #expect(EntryIDRule.id(for: video, permalink: "https://e.com/p") == ("yt:video:native", .native))
        var blank = entry()
        blank.namespacedID = "  "
        #expect(EntryIDRule.id(for: blank, permalink: nil).source == .contentHash)
    }

    @Test func anEntryWithNothingStillGetsAnID() {
        let result = EntryIDRule.id(for: ParsedEntry(), permalink: nil)
        #expect(!result.id.isEmpty)
        #expect(result.source == .contentHash)
    }
}

@Suite("Duplicate ids within one document")
struct DuplicateIDTests {
    private func feed(_ items: String) throws -> NormalizedFeed {
        let parsed = try parseFeed("<rss><channel>\(items)</channel></rss>")
        return FeedNormalizer.normalize(parsed, feedURL: "https://e.com/feed", now: readingTime)
    }

    @Test func anExactRepeatIsDropped() throws {
        let result = try feed("<item><guid>a</guid><title>T</title></item><item><guid>a</guid><title>T</title></item>")
        #expect(result.entries.map(\.id) == ["a"])
    }

    @Test func aDifferentEntryWithTheSameIDGetsAContentSuffix() throws {
        let result = try feed("<item><guid>a</guid><title>One</title></item><item><guid>a</guid><title>Two</title></item>")
        #expect(result.entries.count == 2)
        #expect(result.entries[0].id == "a")
        #expect(result.entries[1].id.hasPrefix("a#"))
        #expect(result.entries[1].id.count == 2 + 12)
        // Deterministic: the same document gives the same ids on every run.
        let again = try feed("<item><guid>a</guid><title>One</title></item><item><guid>a</guid><title>Two</title></item>")
        #expect(again.entries.map(\.id) == result.entries.map(\.id))
    }

    @Test func theSuffixFollowsTheContentNotThePosition() throws {
        let abc = try feed("<item><guid>a</guid><title>One</title></item><item><guid>a</guid><title>Two</title></item><item><guid>a</guid><title>Three</title></item>")
        let acb = try feed("<item><guid>a</guid><title>One</title></item><item><guid>a</guid><title>Three</title></item><item><guid>a</guid><title>Two</title></item>")
        let idOf: (NormalizedFeed, String) -> String? = { feed, title in feed.entries.first { $0.title == title }?.id }
        #expect(idOf(abc, "Two") == idOf(acb, "Two"))
        #expect(idOf(abc, "Three") == idOf(acb, "Three"))
        #expect(Set(abc.entries.map(\.id)).count == 3)
    }
}
