import FeedModel
import FeedNormalization
import FeedParsing

/// A feed document read: the entries as they would be stored, and what the document said
/// about itself (for `rss-inspect`).
public struct ReadFeed: Sendable {
    public var normalized: NormalizedFeed
    /// The format's own version (`2.0`, `1.0` …), when it gives one.
    public var version: String?
    /// The character encoding the bytes were read in.
    public var encoding: String
}

/// Bytes → parse → normalise: the one path by which `rss-update`, `rss-create` and
/// `rss-inspect` read a feed, so that what `rss-inspect` prints is exactly what is stored.
public enum FeedReading {
    /// - Parameters:
    ///   - baseURL: what relative links resolve against (the URL fetched, in the end).
    ///   - now: when the feed was read: dates later than a day after it are not kept.
    public static func read(
        _ bytes: consuming [UInt8], charset: String?, baseURL: String?, now: Int64
    ) throws(FeedParseError) -> ReadFeed {
        // `consume`: the body is freed once parsed, not when normalising ends (peak memory
        // at high concurrency is bodies in flight).
        let parsed = try FeedParser.parse(consume bytes, charset: charset)
        let version = parsed.version
        let encoding = parsed.encoding
        // The normaliser consumes the parsed entries one by one: peak memory per feed stays low.
        return ReadFeed(normalized: FeedNormalizer.normalize(consume parsed, feedURL: baseURL, now: now), version: version, encoding: encoding)
    }
}
