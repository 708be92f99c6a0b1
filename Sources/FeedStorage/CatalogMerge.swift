import FeedBasics
import Foundation
import GRDB

extension Snapshot {
    /// The catalog clients get when several shards publish together: the `feeds` table of
    /// `base` (the committing shard's catalog snapshot, which lists every feed), and the
    /// `about` and `last_update` rows of each feed from the snapshot of the shard that owns it
    /// (`owners`: a snapshot and the feeds it speaks for), from `base` for feeds no owner
    /// speaks for. A feed whose URL the owner's `feeds` row gives otherwise takes that row too
    /// (or is left out, when another feed has that URL here). Every input is a published
    /// catalog snapshot, read as published; the output is written as
    /// ``writeCatalog(from:to:flushing:)`` writes, so equal inputs give equal bytes.
    public static func writeMergedCatalog(
        base: String, owners: [(snapshot: String, feedIDs: Set<Int64>)], to destination: String, flushing: DurableFiles.Flushing = .now
    ) throws(StorageError) -> SnapshotFile {
        var problems: [String] = []
        func rows(of path: String) throws(StorageError) -> [[[DatabaseValue]]] {
            try StorageError.wrap(path, "reading a catalog snapshot") {
                let queue = try DatabaseQueue(path: path, configuration: readOnly)
                return try queue.read { db in
                    var read: [[[DatabaseValue]]] = []
                    for table in catalogClientTables { read.append(try ClientRows.read(table, db: db, problems: &problems)) }
                    return read
                }
            }
        }
        var tables = try rows(of: base)
        for owner in owners where !owner.feedIDs.isEmpty {
            let theirs = try rows(of: owner.snapshot)
            // `feeds`: where the owner's catalog gives one of its feeds another URL (the feed list
            // changed on one shard before the other), its row is the owner's too: the feed's
            // pointer carries the items of the owner's feed, and they must not be listed as another's.
            let theirURLs = Dictionary(
                theirs[0].filter { owner.feedIDs.contains(feedID($0)) }.map { (feedID($0), $0) }, uniquingKeysWith: { first, _ in first })
            var left: Set<Int64> = []
            tables[0] = tables[0].compactMap { row in
                guard let their = theirURLs[feedID(row)], their != row else { return row }
                let url = their.dropFirst().first
                if tables[0].contains(where: { $0.dropFirst().first == url && feedID($0) != feedID(row) }) {
                    left.insert(feedID(row))
                    problems.append("feed \(feedID(row)): the shards' catalogs give it different URLs; left out until they agree "
                        + "(apply every change to the feed list on every shard, docs/sharding.md)")
                    return nil
                }
                problems.append("feed \(feedID(row)): the shards' catalogs give it different URLs; the owning shard's is published "
                    + "(apply every change to the feed list on every shard, docs/sharding.md)")
                return their
            }
            // `about` and `last_update`: the owner's rows replace the base's for its feeds.
            for index in tables.indices.dropFirst() {
                tables[index] = tables[index].filter { !owner.feedIDs.contains(feedID($0)) }
                    + theirs[index].filter { owner.feedIDs.contains(feedID($0)) && !left.contains(feedID($0)) }
                tables[index].sort { feedID($0) < feedID($1) }
            }
        }
        return try writeCatalogRows(tables, problems: problems, to: destination, flushing: flushing)
    }

    private static func feedID(_ row: [DatabaseValue]) -> Int64 {
        row.first.flatMap { Int64.fromDatabaseValue($0) } ?? 0
    }
}
