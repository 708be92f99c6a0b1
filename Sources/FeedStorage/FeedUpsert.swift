import FeedModel
import GRDB

/// Writes one feed's entries as they arrive, in one transaction: a feed streamed from the
/// network is stored entry by entry and never held whole, and still commits whole or not at
/// all (``cancel()``, an error, or the process dying leaves the file as it was).
///
/// Each entry is compared with its stored row before anything is written, so an unchanged
/// entry costs no write; the transaction is deferred, so a feed in which nothing changed
/// never takes the write lock and leaves the file byte-identical. Only the ids seen are
/// remembered (and, when a ``Retention`` limits the feed, every row's age, as it needs).
public final class FeedUpsert {
    private let database: FeedDatabase
    private let now: Int64
    private let retention: Retention
    /// `false` for a preview: everything is planned and counted, nothing written.
    private let writes: Bool
    private let changeSequence: Int64
    private var listed: Set<String> = []
    private var ages: [(id: String, pubdate: Int64, firstSeen: Int64)] = []
    private var summary = UpsertSummary()
    private var isOpen = true

    init(database: FeedDatabase, now: Int64, retention: Retention, writes: Bool) throws(StorageError) {
        (self.database, self.now, self.retention, self.writes) = (database, now, retention, writes)
        summary.repairs = database.repairs
        changeSequence = try database.access("reading items") { db in
            try db.beginTransaction(.deferred)
            try database.createPendingSchema(db)
            return try ItemValues.nextChangeSequence(db, renumbering: writes)
        }
        guard !retention.keepsEverything else { return }
        // Retention reads every row's dates. The same scan sees whether any row holds a wrongly
        // typed value; if one does, it is repaired (in this transaction) and the rows read again,
        // so one value written by hand cannot stop the feed, or the run.
        let (ages, wrong) = try readAges()
        self.ages = ages
        guard wrong else { return }
        summary.repairs += try database.access("reading items") { db in
            writes
                ? try ItemValues.repair(db, now: now, changeSequence: changeSequence).lines
                : try ItemValues.problems(db).map { "would repair \($0)" }
        }
        if writes { self.ages = try readAges().0 }
    }

    /// Every row's id and dates, and whether any row holds a wrongly typed value. Dates are read
    /// as they are: in a preview nothing is repaired, and an unreadable date ranks as 1970.
    private func readAges() throws(StorageError) -> ([(id: String, pubdate: Int64, firstSeen: Int64)], wrong: Bool) {
        try database.access("reading items") { db in
            var ages: [(id: String, pubdate: Int64, firstSeen: Int64)] = []
            var wrong = false
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, pubdate_unix_time, first_seen_unix_time, \(ItemValues.rules.anyWrong) FROM items")
            while let row = try rows.next() {
                if StoredValue.raw(row, 3) == true.databaseValue { wrong = true }
                guard case .success(let id?) = StoredValue.read(row, 0, as: String.self) else { continue }
                let pubdate = (try? StoredValue.read(row, 1, as: Int64.self).get()) ?? nil
                let firstSeen = (try? StoredValue.read(row, 2, as: Int64.self).get()) ?? nil
                ages.append((id, pubdate ?? 0, firstSeen ?? 0))
            }
            return (ages, wrong)
        }
    }

    deinit { cancel() }

    /// Stores one entry (counts it, in a preview). An id the document already gave is skipped:
    /// normalisation makes ids unique, but a repeat must never fail the feed's transaction.
    public func add(_ entry: Entry) throws(StorageError) {
        guard isOpen, listed.insert(entry.id).inserted else { return }
        let row = StoredEntry(entry, now: now)
        let (writes, changeSequence) = (self.writes, self.changeSequence)
        let change = try database.access(writes ? "writing items" : "reading items") { db -> Change in
            let lookup = try db.cachedStatement(sql: "SELECT content_hash FROM items WHERE id = ?")
            let change: Change
            switch try DirectStatement.firstRow(lookup, [.text(row.id)], in: db) {
            case nil: change = .insert
            case .some(let stored): change = stored == row.contentHash ? .unchanged : .update
            }
            switch change {
            case .insert where writes: try row.insert(db, changeSequence: changeSequence)
            case .update where writes: try row.update(db, changeSequence: changeSequence)
            default: break
            }
            return change
        }
        switch change {
        case .insert:
            summary.inserted += 1
            if !retention.keepsEverything { ages.append((row.id, entry.pubdate ?? now, now)) }
        case .unchanged:
            summary.unchanged += 1
        case .update:
            summary.updated += 1
        }
    }

    /// What an entry is to the stored rows.
    private enum Change {
        case insert, update, unchanged
    }

    /// Removes what the ``Retention`` no longer keeps and commits (a preview rolls back).
    public func commit() throws(StorageError) -> UpsertSummary {
        guard isOpen else { return summary }
        let removals = retention.expired(ages, listed: listed, now: now)
        summary.removed = removals.count
        let writes = self.writes
        try database.access(writes ? "writing items" : "reading items") { db in
            if writes {
                for id in removals { try db.cachedStatement(sql: "DELETE FROM items WHERE id = ?").execute(arguments: [id]) }
                try db.commit()
                database.schemaCommitted()
            } else {
                try db.rollback()
            }
        }
        isOpen = false
        if writes {
            try database.moveNewFileIntoPlace()
        } else {
            database.discardCreation()
        }
        return summary
    }

    /// Leaves the file as it was before the first ``add(_:)``. Harmless once committed.
    public func cancel() {
        guard isOpen else { return }
        isOpen = false
        try? database.access("rolling back") { db in if db.isInsideTransaction { try db.rollback() } }
        database.discardCreation()
    }
}
