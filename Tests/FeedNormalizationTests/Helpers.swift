import Foundation
import FeedModel
import FeedNormalization
import FeedParsing

func parseFeed(_ document: String) throws -> ParsedFeed {
    try FeedParser.parse(Array(document.utf8))
}

/// When these tests read their feeds (2030-03-17): after every date they expect to be kept.
let readingTime: Int64 = 1_900_000_000

func normalized(
    _ document: String, feedURL: String? = "https://feed.example/dir/feed.xml", now: Int64 = readingTime
) throws -> NormalizedFeed {
    let parsed = try FeedParser.parse(Array(document.utf8))
    return FeedNormalizer.normalize(parsed, feedURL: feedURL, now: now)
}

/// A fixture shipped beside these tests, read and normalised as `rss-update` would, as if
/// fetched from `feedURL`.
func normalizedFixture(_ name: String, feedURL: String? = "https://feed.example/dir/feed.xml") throws -> NormalizedFeed {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
        throw FixtureMissing(name: name)
    }
    let parsed = try FeedParser.parse([UInt8](try Data(contentsOf: url)))
    return FeedNormalizer.normalize(parsed, feedURL: feedURL, now: readingTime)
}

struct FixtureMissing: Error {
    let name: String
}
