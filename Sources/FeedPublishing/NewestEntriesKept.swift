/// The newest entries across a shard's snapshots, as its record keeps them: how `atom.xml` and
/// `index.html` follow a publication that changed one feed without reading every snapshot
/// again (issue 51: reading them all was most of a publication's cost at 100,000 feeds).
///
/// Invariant: every entry that ranks above the last one kept (``NewestEntries/precedes(_:_:)``,
/// among each published feed's newest `limit` items dated no later than `notAfter`) is kept;
/// `complete` says there are no others at all. A publication then reads only the snapshots
/// that changed (another file than the record named), that could not be read last time, or
/// that hold an item dated after the old cutoff but not after the new one (`later`); keeps the
/// other feeds' entries; and keeps of the merge only what still ranks at or above the last
/// entry kept (below it, entries of unchanged feeds it never held may lie). Fewer than `limit`
/// left, and not complete: every snapshot is read again. So the pages are, byte for byte, those
/// reading every snapshot gives (`NewestEntriesKeptTests` checks it over random publications).
public struct NewestEntriesKept: Codable, Equatable, Sendable {
    /// The number of entries the pages show (`PublishConfiguration.aggregateEntries`).
    public var limit: Int
    /// The cutoff the entries were read with: an item dated after it was left out.
    public var notAfter: Int64
    /// Every entry of every published feed's newest `limit` is kept.
    public var complete: Bool
    public var entries: [Kept]
    /// Feeds whose snapshot holds an item dated after `notAfter` (absent: none), with the
    /// earliest such date: read again once the cutoff reaches it.
    public var later: [Later]?
    /// Feeds whose snapshot could not be read: read again by the next publication.
    public var unread: [Int64]?

    /// How many entries are kept: a few times what the pages show, so that feeds changing
    /// (and their entries moving) rarely leave fewer than `limit` known.
    static func capacity(for limit: Int) -> Int { 3 * Swift.max(0, limit) }

    public struct Kept: Codable, Equatable, Sendable {
        public var feedID: Int64
        public var id: String
        public var title: String
        public var summary: String
        public var permalink: String?
        public var published: Int64
        public var updated: Int64?
        public var author: String?
        public var undated: Bool

        enum CodingKeys: String, CodingKey {
            case id, title, summary, permalink, published, updated, author, undated
            case feedID = "feedid"
        }
    }

    public struct Later: Codable, Equatable, Sendable {
        public var feedID: Int64
        public var from: Int64

        enum CodingKeys: String, CodingKey {
            case from
            case feedID = "feedid"
        }
    }

    enum CodingKeys: String, CodingKey {
        case limit, complete, entries, later, unread
        case notAfter = "not_after_unix_time"
    }
}
