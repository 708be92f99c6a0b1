import FeedBasics
import Foundation
import GRDB

extension Snapshot {
    /// The catalog clients get when several shards publish together: the `feeds` table of
    /// `base` (the committing shard's catalog snapshot, which lists every feed), and the
    /// `about` and `last_update` rows of each feed from the snapshot of the shard that owns it
    /// (`owners`: a snapshot and the feeds it speaks for), from `base` for feeds no owner
    /// speaks for. Every input is a published catalog snapshot, read as published; the output
    /// is written as ``writeCatalog(from:to:flushing:)`` writes, so equal inputs give equal bytes.
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
            // `about` and `last_update`: the owner's rows replace the base's for its feeds.
            for index in tables.indices.dropFirst() {
                tables[index] = tables[index].filter { !owner.feedIDs.contains(feedID($0)) }
                    + theirs[index].filter { owner.feedIDs.contains(feedID($0)) }
                tables[index].sort { feedID($0) < feedID($1) }
            }
        }
        var file = try write(destination, schema: catalogTables, version: catalogSchemaVersion, flushing: flushing) { db in
            for (table, rows) in zip(catalogClientTables, tables) {
                let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
                let statement = try db.makeStatement(sql: "INSERT INTO \(table.name) VALUES (\(placeholders))")
                for row in rows { try statement.execute(arguments: StatementArguments(row)) }
            }
            return tables.first?.count ?? 0
        }
        file.problems = problems
        return file
    }

    private static func feedID(_ row: [DatabaseValue]) -> Int64 {
        row.first.flatMap { Int64.fromDatabaseValue($0) } ?? 0
    }
}
