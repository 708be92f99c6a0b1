import FeedFetching
import FeedPipeline
import FeedPublishing

/// What `rss-serve` needs to subscribe to hubs and store what they push: set when it is given
/// `--public-url` and `--data-dir`.
public struct WebSubSettings: Sendable {
    /// The URL hubs reach this server at, `https://feeds.example.org` (no trailing slash):
    /// callbacks are `<publicURL>/websub/<callback>`.
    public var publicURL: String
    /// The data directory, its fetch rules (the SSRF guard, proxies, timeouts, size cap: the
    /// same as `rss-update`'s) for requests to hubs, and the pipeline rules for pushed bodies.
    public var pipeline: PipelineConfiguration
    /// How pushed feeds are published into `--out`.
    public var publish: PublishConfiguration
    /// Where they are published when `--out` is not a directory (a bucket: set by
    /// ``FeedServer`` from the publication it serves).
    public var target: (any PublicationTarget)?
    /// How often the catalog is read for feeds advertising a hub, and leases checked.
    public var checkInterval: Duration = .seconds(60)
    /// The lease asked of hubs (they may grant another): ten days.
    public var leaseSeconds: Int64 = 864_000
    /// A lease is renewed when less than this is left of it: a day, or a tenth of a short lease.
    public func renewMargin(lease: Int64) -> Int64 { min(86_400, max(lease / 10, 1)) }
    /// A request not verified within this long is asked again.
    public var verificationWait: Int64 = 300
    /// A hub's refusal is asked again after this long.
    public var deniedWait: Int64 = 86_400
    /// The largest distribution accepted (bytes); larger ones are refused with 413, unread.
    public var pushLimit: Int
    /// How long a push waits for the data directory's lock (an `rss-update` run holds it)
    /// before it is given up; the feed's next poll brings the same items.
    public var lockWait: Duration = .seconds(600)

    public init(publicURL: String, pipeline: PipelineConfiguration, publish: PublishConfiguration) {
        var url = publicURL
        while url.hasSuffix("/") { url.removeLast() }
        self.publicURL = url
        self.pipeline = pipeline
        self.publish = publish
        pushLimit = pipeline.fetch.maxBodyBytes
    }

    func callbackURL(_ callback: String) -> String { "\(publicURL)/websub/\(callback)" }
}
