import FeedBasics
import FeedCommandSupport
import FeedPipeline
import Logging

extension CommandContext {
    /// One notice per run, not one per file, when the data directory holds databases of
    /// feeds that other shards own now (N changed): they are left in place, since Feedmill
    /// never deletes a feed's history that a person may still need; the feeds' new shards
    /// fetch them into databases of their own.
    public func noteOtherShardsDatabases(_ report: RunReport) {
        guard report.otherShardsDatabases > 0 else { return }
        let shard = report.shard.label
        let count = report.otherShardsDatabases
        logger.notice(
            """
            \(count) feed database(s) here are of feeds other shards own now (N changed): left in place, no longer \
            updated by shard \(shard); remove them once their new shards publish those feeds (docs/sharding.md)
            """,
            metadata: ["shard": .string(shard), "databases": "\(count)"])
    }
}
