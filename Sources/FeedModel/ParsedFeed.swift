/// A feed document read into values, with nothing resolved or chosen yet.
///
/// Produced by FeedParsing from bytes alone (no network, no database) and turned into
/// a ``NormalizedFeed`` by FeedNormalization.
public struct ParsedFeed: Sendable, Equatable {
    public var format: FeedFormat
    /// `rss version`, Atom `0.3`/`1.0`, RDF `1.0`, JSON Feed `1.0`/`1.1`.
    public var version: String?
    public var title: FeedText?
    /// RSS/RDF channel `<link>`; JSON Feed `home_page_url`.
    public var siteLink: FeedLink?
    /// Atom feed-level links and `atom:link` inside an RSS channel.
    public var links: [FeedLink] = []
    /// Feed-level authors, which Atom entries inherit.
    public var authors: [ParsedPerson] = []
    /// The channel's `itunes:author`: credits a podcast's entries that nothing else credits.
    public var podcastAuthors: [ParsedPerson] = []
    /// RSS/RDF channel `description`, Atom `subtitle` (0.3 `tagline`), JSON Feed `description`.
    public var description: FeedText?
    /// The feed's pictures, each with `rel` naming where it came from (`image` for RSS
    /// `image/url`, `itunes:image`, `icon`, `logo`, `favicon`): normalisation picks one by a
    /// fixed precedence.
    public var pictures: [FeedLink] = []
    /// RSS `language`, `dc:language`, the Atom root's `xml:lang`, JSON Feed `language`, as written.
    public var language: String?
    public var hints = SchedulingHints()
    public var entries: [ParsedEntry] = []
    /// `xml:base` values in effect on the root element.
    public var baseChain: [String] = []
    /// Problems the reader recovered from (malformed XML, undecodable bytes), first ones only.
    public var diagnostics: [String] = []
    /// The character encoding the bytes were read as.
    public var encoding: String = "UTF-8"

    public init(format: FeedFormat) {
        self.format = format
    }
}
