import FeedBasics

/// `rss-update --shard K/N --feed ID` named feeds that other shards own: they are fetched by
/// those shards' runs only, or two machines would fetch one host's feeds at once.
public struct OtherShardsFeeds: Error, Equatable, Sendable, CustomStringConvertible {
    /// A requested feed and the K of the shard that owns it.
    public struct Feed: Equatable, Sendable {
        public var feedID: Int64
        public var url: String
        public var owner: Int

        public init(feedID: Int64, url: String, owner: Int) {
            (self.feedID, self.url, self.owner) = (feedID, url, owner)
        }
    }

    public var shard: Shard
    public var feeds: [Feed]

    public init(shard: Shard, feeds: [Feed]) {
        self.shard = shard
        self.feeds = feeds.sorted { $0.feedID < $1.feedID }
    }

    public var description: String {
        let named = feeds.map { "feed \($0.feedID) (\($0.url)) is shard \($0.owner)/\(shard.count)'s" }
        return "not this shard's (\(shard.label)): " + named.joined(separator: "; ")
            + "; update it with --shard K/\(shard.count) on that shard's data directory"
    }
}
