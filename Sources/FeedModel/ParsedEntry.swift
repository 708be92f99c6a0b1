/// One entry as the document states it, before any precedence rule is applied.
///
/// Every format's reader fills the same fields, so the rules for id, permalink, dates and
/// text live once in FeedNormalization instead of once per format.
public struct ParsedEntry: Sendable, Equatable {
    /// Atom `id`, RSS `guid`, RDF `rdf:about`, JSON Feed `id`, as written.
    public var nativeID: String?
    /// An identifier of another vocabulary, with its prefix: `yt:video:` + YouTube's
    /// `yt:videoId` (the form YouTube's own Atom `id` takes). The id of an entry that has no
    /// native id and no permalink, so that entries telling themselves apart only by it stay
    /// apart.
    public var namespacedID: String?
    /// RSS `guid isPermaLink`; `true` when the attribute is absent, as RSS 2.0 specifies.
    public var guidIsPermaLink: Bool = true
    /// Atom `link` elements, and `atom:link` inside RSS items.
    public var links: [FeedLink] = []
    /// RSS and RDF `<link>` text; JSON Feed `url`.
    public var itemLink: FeedLink?
    /// `feedburner:origLink`; JSON Feed `external_url`.
    public var originalLink: FeedLink?
    public var title: FeedText?
    /// `media:title` (on the item, in `media:group` or `media:content`): the title when the
    /// entry has no other.
    public var mediaTitle: FeedText?
    /// RSS `description`, Atom `summary`, JSON Feed `summary`.
    public var summary: FeedText?
    /// `content:encoded`, Atom `content`, JSON Feed `content_html`/`content_text`.
    public var content: FeedText?
    /// Published time (Atom `published`/`issued`, RSS `pubDate`, `dc:date`, JSON `date_published`), seconds UTC.
    public var published: Int64?
    /// Updated time (Atom `updated`/`modified`, `dcterms:modified`, JSON `date_modified`), seconds UTC.
    public var updated: Int64?
    /// The date strings as written, so a person can see why a date was not understood.
    public var publishedText: String?
    public var updatedText: String?
    /// Atom `author`, RSS `author`, `dc:creator`, JSON Feed `authors` (1.0's `author`).
    public var authors: [ParsedPerson] = []
    /// `itunes:author`: credits the entry only when nothing else does.
    public var podcastAuthors: [ParsedPerson] = []
    /// RSS `enclosure`, Atom `link rel="enclosure"`, `media:content` (alone or in
    /// `media:group`), JSON Feed `attachments`.
    public var enclosures: [ParsedEnclosure] = []
    /// `itunes:duration` as written (`H:MM:SS`, `MM:SS` or seconds): the playing time of the
    /// entry's first audio or video enclosure.
    public var itunesDuration: String?
    /// `media:thumbnail` and `media:content medium="image"` URLs in document order; JSON Feed
    /// `image`, then `banner_image`.
    public var thumbnails: [FeedLink] = []
    /// `itunes:image href`: the episode's artwork.
    public var itunesImage: FeedLink?
    /// RSS `category`, Atom `category`, `dc:subject`, JSON Feed `tags`, in document order.
    public var categories: [ParsedCategory] = []
    /// `xml:base` values in effect on the entry element, outermost first.
    public var baseChain: [String] = []

    public init() {}
}
