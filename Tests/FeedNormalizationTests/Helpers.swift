import FeedModel
import FeedNormalization
import FeedParsing

func parseFeed(_ document: String) throws -> ParsedFeed {
    try FeedParser.parse(Array(document.utf8))
}

func normalized(_ document: String, feedURL: String? = "https://feed.example/dir/feed.xml") throws -> NormalizedFeed {
    let parsed = try FeedParser.parse(Array(document.utf8))
    return FeedNormalizer.normalize(parsed, feedURL: feedURL)
}
