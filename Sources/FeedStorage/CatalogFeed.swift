import FeedModel

/// One feed as the catalog knows it: the client-visible part (`feeds`, `about`,
/// `last_update`) and the pipeline's own state.
public struct CatalogFeed: Sendable, Equatable {
    public var feedID: Int64
    public var url: String
    /// `about.title`; `nil` until the feed has been fetched once.
    public var title: String?
    /// `about.link`: the site's home page as the feed last gave it (else as the feed list did).
    public var link: String?
    /// `about.description`, `about.image_url`, `about.language`: what the feed last said of
    /// itself; written with the title, whenever the feed's content is read.
    public var about = FeedDescription()
    /// `last_update.when_unix_time`: when the feed's items last changed, as a reader needs it
    /// (the fetch that stored new, changed or removed items; the first store). A fetch that
    /// found nothing new (a 304, or the same items) leaves it, so the published catalog changes
    /// only when a feed does (issue 51). Before issue 51 it was the last successful fetch,
    /// which is ``FetchState/lastSuccess`` and ``lastFetched``.
    public var lastUpdate: Int64?
    public var state: FetchState
    /// Values the catalog holds for this feed that did not read as their column's type (or
    /// bound), each read as absent: `fetch_state.keep_items holds text 'x'`. Empty for a
    /// catalog Feedmill alone wrote; never stored.
    public var unreadable: [String] = []

    public init(feedID: Int64, url: String, title: String? = nil, lastUpdate: Int64? = nil, state: FetchState = FetchState()) {
        self.feedID = feedID
        self.url = url
        self.title = title
        self.lastUpdate = lastUpdate
        self.state = state
    }

    /// When the feed was last read successfully (a 304 counts): what its schedule counts from.
    /// A catalog written before `fetch_state` existed has only `last_update` for it.
    public var lastFetched: Int64? { state.lastSuccess ?? lastUpdate }

    /// What the feed's database must be stamped with.
    public var identity: FeedIdentity { FeedIdentity(feedID: feedID, originURL: state.originURL ?? url) }
}

/// The pipeline's bookkeeping for one feed (table `fetch_state`).
public struct FetchState: Sendable, Equatable {
    /// The URL the catalog first listed the feed under; the feed's database is stamped with it.
    public var originURL: String?
    public var siteLink: String?
    /// The OPML outline path, `Engineering/Databases`.
    public var category: String?
    public var opmlTitle: String?
    public var inOPML = true
    public var etag: String?
    public var lastModified: String?
    public var bodyHash: String?
    public var lastStatus: Int?
    public var lastErrorKind: FailureKind?
    public var lastError: String?
    public var consecutiveErrors = 0
    public var lastAttempt: Int64?
    public var lastSuccess: Int64?
    /// Not before this time (backoff, `Retry-After`).
    public var nextAttempt: Int64?
    /// Where permanent redirects led last time, and how many runs in a row they did.
    public var redirectTarget: String?
    public var redirectSightings = 0
    /// The feed answered `410 Gone`.
    public var gone = false
    /// How often the feed (or its HTTP caching headers) asks to be polled, in seconds.
    public var hintInterval: Int?
    public var skipHours: [Int] = []
    public var skipDays: [String] = []
    /// This feed's own retention, overriding the run's (`rss-feeds set`).
    public var retention = Retention.keepEverything
    /// The WebSub hub and topic the feed advertised when last read (`rel="hub"`, `rel="self"`):
    /// what `rss-serve` subscribes to. Both or neither.
    public var websubHub: String?
    public var websubTopic: String?
    public init() {}
}
