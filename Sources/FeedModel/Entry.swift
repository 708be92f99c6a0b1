/// Where an entry's id came from; stored next to the id so a client or a person can tell a
/// publisher-given id from one Feedmill had to make up.
public enum EntryIDSource: String, Sendable, Codable {
    /// Atom `id`, RSS `guid`, RDF `rdf:about`, JSON Feed `id`.
    case native
    /// No native id: the permalink.
    case permalink
    /// Neither, but an identifier from another vocabulary (YouTube's `yt:videoId`).
    case namespaced
    /// None of those: a hash of title, date and summary.
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
    /// What a reader shows as the byline: the authors' display names, joined by ", ".
    public var author: String?
    /// The credited people in document order, without repeats (`items.authors_json`).
    public var authors: [Person]
    public var enclosures: [Enclosure]
    /// The one picture a reader shows beside the entry (`items.image_url`): an absolute
    /// `http`/`https` URL.
    public var image: String?
    public var categories: [EntryCategory]

    public init(
        id: String, idSource: EntryIDSource, permalink: String?, title: String, summary: SafeHTML,
        pubdate: Int64?, updated: Int64?, author: String?, authors: [Person] = [], enclosures: [Enclosure] = [],
        image: String? = nil, categories: [EntryCategory] = []
    ) {
        self.id = id
        self.idSource = idSource
        self.permalink = permalink
        self.title = title
        self.summary = summary
        self.pubdate = pubdate
        self.updated = updated
        self.author = author
        self.authors = authors
        self.enclosures = enclosures
        self.image = image
        self.categories = categories
    }
}

/// A feed ready to store: its own title and site link, and its entries in document order.
public struct NormalizedFeed: Sendable, Equatable {
    public var format: FeedFormat
    public var title: String
    /// The site's home page (absolute `http`/`https`), or `nil`.
    public var link: String?
    /// Description, picture and language, for the catalog's `about` side.
    public var about: FeedDescription
    public var hints: SchedulingHints
    /// Where the feed says it announces its changes (WebSub, `rel="hub"`) and its canonical
    /// URL for that hub (`rel="self"`, the subscription's topic): absolute `http`/`https`, or
    /// `nil`. Both are needed to subscribe; `rss-serve` does, when it has a public URL.
    public var websub: WebSubLinks?
    public var entries: [Entry]
    public var diagnostics: [String]

    public init(
        format: FeedFormat, title: String, link: String?, about: FeedDescription = FeedDescription(),
        hints: SchedulingHints = SchedulingHints(), websub: WebSubLinks? = nil,
        entries: [Entry], diagnostics: [String] = []
    ) {
        self.format = format
        self.title = title
        self.link = link
        self.about = about
        self.hints = hints
        self.websub = websub
        self.entries = entries
        self.diagnostics = diagnostics
    }
}

/// A feed's WebSub discovery (W3C WebSub §4): the hub it publishes through and the topic URL
/// it is known by there, both absolute `http`/`https`.
public struct WebSubLinks: Sendable, Equatable {
    public var hub: String
    public var topic: String

    public init(hub: String, topic: String) {
        self.hub = hub
        self.topic = topic
    }
}
