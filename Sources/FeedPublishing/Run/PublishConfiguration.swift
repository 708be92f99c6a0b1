import FeedBasics
import Foundation

/// How to publish.
public struct PublishConfiguration: Sendable {
    public var outputDirectory = "./publish"
    /// Earlier versions of each feed kept, with a delta from each to the current one.
    public var retainedVersions = 3
    /// Rewrite every database even if unchanged (the baseline the benchmark compares with).
    public var full = false
    /// Where the publish directory is served, for `atom.xml`'s self link and id.
    public var siteURL: String?
    public var title = "Feedmill"
    /// Entries in `atom.xml` and `index.html`.
    public var aggregateEntries = 50
    /// Feeds `index.html`'s list of all feeds shows, those needing attention first: the page is
    /// written by every publication, so it stays small whatever the catalog's size (the
    /// catalog's pages and `rss-feeds list` have every feed).
    public var listedFeeds = AllFeedsSection.rowLimit
    /// The part of the feed list this publisher publishes (`--shard K/N`): the feeds whose
    /// host is this shard's, its record and intent; the root merges every shard's.
    public var shard = Shard.all
    /// Seconds a retired file stays before a later publication removes it (`--retire-after`):
    /// longer than a client's sync, so one that read the previous root finds what it named.
    /// 0, the default for a directory, removes it with the next publication, as format 1 did.
    public var retireAfter: Int64 = 0
    /// A catalog snapshot at least this large (bytes) is not written again when only feeds'
    /// `last_update` moved, until ``catalogRefresh`` seconds after it was written: at a million
    /// feeds it is 226 MB, and some feed changes at every publication (issue 51). Feeds added,
    /// removed, renamed or described are published at once whatever the size; the pointers and
    /// the catalog's pages always carry the current `last_update`.
    public var catalogDeferralSize = 4_000_000
    public var catalogRefresh: Int64 = 3_600
    /// The key the root and every pointer written are signed with (`--signing-key`), so a
    /// client that pins its public key refuses anything else (``SignedDocument``). Nil: unsigned.
    public var signingKey: Ed25519SigningKey?
    /// How long a lock may be held before another publisher may take it over (object storage).
    public var lease: Duration = .seconds(600)
    /// Seconds since the epoch: entries dated too far past it are left out of the pages.
    /// `--now` and `SOURCE_DATE_EPOCH` replace it.
    public var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    public init() {}

    /// Pins every reading of the current time to `now`.
    public mutating func fixClock(at now: Int64) {
        clock = { now }
    }
}
