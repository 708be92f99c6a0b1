/// Where an entry's id came from; stored next to the id so a client or a person can tell a
/// publisher-given id from one Feedmill had to make up.
public enum EntryIDSource: String, Sendable, Codable {
    /// Atom `id`, RSS `guid`, RDF `rdf:about`, JSON Feed `id`.
    case native
    /// No native id: the permalink.
    case permalink
    /// Neither: a hash of title, date and summary.
    case contentHash = "content-hash"
}

/// One entry after every precedence rule has been applied: what gets stored and shown.
public struct Entry: Sendable, Equatable {
    /// Never empty; the same entry gives the same id on every run.
    public var id: String
    public var idSource: EntryIDSource
    /// An absolute `http`/`https` URL, or `nil`.
    public var permalink: String?
    /// Plain text: no tags, entities decoded, whitespace collapsed.
    public var title: String
    /// HTML safe to display: no scripts, styles, frames, event handlers or `javascript:` URLs.
    public var summary: SafeHTML
    /// Published, else updated; `nil` when the feed gives no date Feedmill can read.
    public var pubdate: Int64?
    public var updated: Int64?
    public var author: String?
    public var enclosures: [Enclosure]
    public var thumbnail: String?
    public var categories: [String]

    public init(
        id: String, idSource: EntryIDSource, permalink: String?, title: String, summary: SafeHTML,
        pubdate: Int64?, updated: Int64?, author: String?, enclosures: [Enclosure] = [],
        thumbnail: String? = nil, categories: [String] = []
    ) {
        self.id = id
        self.idSource = idSource
        self.permalink = permalink
        self.title = title
        self.summary = summary
        self.pubdate = pubdate
        self.updated = updated
        self.author = author
        self.enclosures = enclosures
        self.thumbnail = thumbnail
        self.categories = categories
    }
}

/// A feed ready to store: its own title and site link, and its entries in document order.
public struct NormalizedFeed: Sendable, Equatable {
    public var format: FeedFormat
    public var title: String
    /// The site's home page (absolute `http`/`https`), or `nil`.
    public var link: String?
    public var hints: SchedulingHints
    public var entries: [Entry]
    public var diagnostics: [String]

    public init(
        format: FeedFormat, title: String, link: String?, hints: SchedulingHints = SchedulingHints(),
        entries: [Entry], diagnostics: [String] = []
    ) {
        self.format = format
        self.title = title
        self.link = link
        self.hints = hints
        self.entries = entries
        self.diagnostics = diagnostics
    }
}
