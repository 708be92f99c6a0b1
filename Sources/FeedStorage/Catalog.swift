import FeedModel
import Foundation
import GRDB

/// A feed list entry to import: what an OPML outline says.
public struct CatalogOutline: Sendable, Equatable {
    public var url: String
    public var title: String?
    public var siteLink: String?
    public var category: String?

    public init(url: String, title: String? = nil, siteLink: String? = nil, category: String? = nil) {
        self.url = url
        self.title = title
        self.siteLink = siteLink
        self.category = category
    }
}

/// What an import did.
public struct ImportResult: Sendable, Equatable {
    /// The feedids of the feeds listed for the first time, ascending: 8 bytes a feed (the
    /// result lives through the whole run that follows the import, where a list of each new
    /// feed's feedid and URL held ~115 bytes per feed).
    public var added: [Int64] = []
    public var kept = 0
    /// URLs listed more than once, or the same feed as another listed URL once normalised
    /// (`http://Example.COM:80/feed#x` is `http://example.com/feed`); each reported once.
    public var duplicates: [String] = []
    /// Feeds in the catalog but not in the list: kept, or removed with `prune`.
    public var missing: [CatalogFeed] = []
    public var pruned = false
    /// Outlines not imported, with the reason (a feed URL that is not http/https).
    public var rejected: [String] = []
    /// Databases of pruned feeds that could not be removed, with the reason.
    public var removalFailures: [String] = []
}

/// `all_feeds.sqlite`: which feeds exist, their titles and update times (what clients read),
/// and the pipeline's fetch state. WAL mode, so readers (publishing, a person with `sqlite3`)
/// never block the update run; every write is one short transaction, serialised by the queue.
public final class Catalog: Sendable {
    public static let fileName = DataDirectory.catalogFileName

    public let path: String
    /// What a read-only copy of the catalog opens: `path`, or an immutable `file:` URI where
    /// the directory cannot be written (see ``init(readingAt:)``).
    public let readLocation: String
    /// GRDB's queue serialises all access to the connection.
    let queue: DatabaseQueue
    /// What opening the catalog to write repaired: values of the wrong type or out of bounds,
    /// written by hand (``CatalogValues``). One line each, for the command to say. Opening it
    /// for reading repairs nothing.
    public let repairs: [String]

    public init(path: String) throws(StorageError) {
        self.path = path
        readLocation = path
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        // SQLite's default page cache (2 MiB) grows with the catalog until it holds the whole
        // file, and `VACUUM` takes as much again: 4 MiB more at 5,000 feeds than at 200. A run
        // touches each feed's pages once or twice, and the pages left out are in the
        // operating system's cache.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -256") }
        if let refusal = StorageError.notWritable(path) { throw refusal }
        let queue = try StorageError.wrap(path, "opening") { try DatabaseQueue(path: path, configuration: configuration) }
        try StorageError.wrap(path, "migrating") {
            try queue.inDatabase { db in try CatalogSchema.generation.refuseNewer(db, path: path) }
            try CatalogSchema.migrator().migrate(queue)
            try queue.inDatabase { db in try CatalogHealthReading.createIndexes(db) }
        }
        repairs = try StorageError.wrap(path, "repairing values") { try queue.inDatabase { db in try CatalogValues.repair(db) } }
        self.queue = queue
    }

    /// Stops the statement this connection runs, from another thread (it fails with
    /// `SQLITE_INTERRUPT`): a reading the caller no longer wants.
    public func interrupt() {
        queue.interrupt()
    }

    /// Opens the catalog for reading, without migrating: what publishing needs. Where the
    /// directory is writable the connection is an ordinary one that never writes (so closing
    /// it tidies the WAL files away, which a read-only connection cannot do). In a directory
    /// Feedmill may not write to (a read-only mount, another user's data), SQLite cannot
    /// create the WAL index, so the file is opened read-only as immutable: nobody can be
    /// writing it there.
    public init(readingAt path: String) throws(StorageError) {
        self.path = path
        repairs = []
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let directory = (path as NSString).deletingLastPathComponent
        let writable = access(directory.isEmpty ? "." : directory, W_OK) == 0
        configuration.readonly = !writable
        let location = writable ? path : Self.immutableURI(path)
        readLocation = location
        queue = try StorageError.wrap(path, "opening") { try DatabaseQueue(path: location, configuration: configuration) }
        let migrated = try StorageError.wrap(path, "reading") {
            try queue.read { db in
                try CatalogSchema.generation.refuseNewer(db, path: path)
                return try CatalogSchema.migrator().hasCompletedMigrations(db)
            }
        }
        guard migrated else {
            throw StorageError(path: path, message: "the catalog has an older schema: run rss-update once to migrate it")
        }
    }

    /// `file:` URI with `immutable=1` (the system SQLite is built with URI file names).
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%"))
        return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?immutable=1"
    }

    /// Rebuilds the file from its contents (`VACUUM`). Workers record outcomes in the order
    /// feeds finish, which differs from run to run, and that order shapes the file's pages;
    /// rebuilding makes the file a function of its contents alone, so two runs over the same
    /// answers give byte-identical catalogs (the fixture check in CI), and it stays compact.
    public func compact() throws(StorageError) {
        try StorageError.wrap(path, "compacting") { try queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") } }
    }

    public func feeds() throws(StorageError) -> [CatalogFeed] {
        var feeds: [CatalogFeed] = []
        try forEachFeed { feeds.append($0) }
        return feeds
    }

    /// Whether the catalog lists any feed, without reading them.
    public func hasFeeds() throws(StorageError) -> Bool {
        try StorageError.wrap(path, "reading feeds") {
            try readStatement { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM feeds)") ?? false }
        }
    }

    /// Hands over every feed in feedid order, one row at a time, so a run over a large catalog
    /// need not hold every feed's record at once. `body` runs inside the catalog's read and
    /// must not use the catalog.
    public func forEachFeed(_ body: (CatalogFeed) -> Void) throws(StorageError) {
        try StorageError.wrap(path, "reading feeds") {
            try readStatement { db in
                // A cursor, not fetchAll: a fetched row is a copy that carries its own array of column names.
                let rows = try Row.fetchCursor(db, sql: Self.selectFeeds + " ORDER BY feeds.feedid")
                while let row = try rows.next() { body(Self.feed(row)) }
            }
        }
    }

    public func feed(id: Int64) throws(StorageError) -> CatalogFeed? {
        try StorageError.wrap(path, "reading feed \(id)") {
            // Cached: an update run reads each feed it fetches by id, thousands per run.
            try readStatement { db in
                try Row.fetchOne(db.cachedStatement(sql: Self.selectFeeds + " WHERE feeds.feedid = ?"), arguments: [id]).map(Self.feed)
            }
        }
    }

    /// Adds the outlines' URLs not yet in the catalog (new feedids), refreshes the OPML data
    /// of those already there (feedids kept), and reports the rest. URLs are compared as
    /// ``FeedURLKey`` normalises them and stored as written.
    ///
    /// A new feed gets a feedid above every feedid the catalog ever gave (a recorded
    /// high-water mark, so pruned feeds' ids are not reused) that no feed database file beside
    /// the catalog has, so no feed can inherit another feed's file (``FeedIDAllocator``).
    public func importOutlines(_ outlines: [CatalogOutline], prune: Bool) throws(StorageError) -> ImportResult {
        let onDisk = Set(FeedDatabaseFile.feedIDs(inDirectory: directory))
        return try StorageError.wrap(path, "importing feeds") {
            try queue.write { db -> ImportResult in
                var result = ImportResult()
                var seen: Set<String> = []
                var reported: Set<String> = []
                let existing = try Row.fetchAll(db, sql: Self.selectFeeds).map(Self.feed)
                // Positions in `existing`, not copies of its feeds: a copy of every feed's fetch
                // state, kept for every new one too, was 18 MiB of a 20,000-feed import.
                let byKey = Dictionary(existing.indices.map { (FeedURLKey.key(existing[$0].url), $0) }, uniquingKeysWith: { first, _ in first })
                var feedIDs = try FeedIDAllocator(highWater: Self.highWater(db), listed: existing.map(\.feedID).max() ?? 0, onDisk: onDisk)
                for outline in outlines {
                    let key = FeedURLKey.key(outline.url)
                    guard seen.insert(key).inserted else {
                        if reported.insert(outline.url).inserted { result.duplicates.append(outline.url) }
                        continue
                    }
                    if let position = byKey[key] {
                        var feed = existing[position]
                        feed.state.category = outline.category
                        feed.state.opmlTitle = outline.title
                        feed.state.siteLink = feed.state.siteLink ?? outline.siteLink
                        feed.state.inOPML = true
                        try Self.save(feed, db: db)
                        result.kept += 1
                    } else {
                        let id = try feedIDs.next(path: path)
                        _ = try Self.insertNew(outline, id: id, inOPML: true, db: db)
                        result.added.append(id)
                    }
                }
                if let last = result.added.last { try Self.raiseHighWater(db, to: last) }
                for feed in existing where !seen.contains(FeedURLKey.key(feed.url)) {
                    result.missing.append(feed)
                    if prune {
                        try Self.deleteRows(of: feed.feedID, db: db)
                    } else {
                        var kept = feed
                        kept.state.inOPML = false
                        try Self.save(kept, db: db)
                    }
                }
                result.pruned = prune && !result.missing.isEmpty
                return result
            }
        }
    }

    /// Lists feeds under the feedids their own databases are stamped with (rebuilding a lost
    /// catalog), in one transaction; feedids or URLs already listed are left alone. Returns
    /// the feeds added.
    public func adopt(_ identities: [FeedIdentity]) throws(StorageError) -> [CatalogFeed] {
        try StorageError.wrap(path, "adopting feed databases") {
            try queue.write { db -> [CatalogFeed] in
                var adopted: [CatalogFeed] = []
                for identity in identities.sorted(by: { $0.feedID < $1.feedID }) {
                    let taken = try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM feeds WHERE feedid = ? OR url = ?)",
                        arguments: [identity.feedID, identity.originURL]) ?? true
                    guard !taken else { continue }
                    adopted.append(try Self.insertNew(CatalogOutline(url: identity.originURL), id: identity.feedID, inOPML: false, db: db))
                }
                try Self.raiseHighWater(db, to: identities.map(\.feedID).max() ?? 0)
                return adopted
            }
        }
    }

    /// Writes everything known about one feed in one transaction. `nextDue`: when it is next
    /// due, for the schedule's index (``CatalogSchedule``), as an update computes it; `nil`
    /// keeps the time stored.
    public func save(_ feed: CatalogFeed, nextDue: Int64? = nil) throws(StorageError) {
        try StorageError.wrap(path, "saving feed \(feed.feedID)") { try queue.write { db in try Self.save(feed, nextDue: nextDue, db: db) } }
    }

    /// The feed that has `url`, if any (to refuse moving a feed onto another one's URL).
    public func feedID(forURL url: String) throws(StorageError) -> Int64? {
        try StorageError.wrap(path, "reading feeds") {
            try readStatement { db in try Int64.fetchOne(db.cachedStatement(sql: "SELECT feedid FROM feeds WHERE url = ?"), arguments: [url]) }
        }
    }

    /// The directory the catalog and the feed databases live in.
    public var directory: String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// The highest feedid ever given; no new feed gets it or any below.
    public func feedIDHighWater() throws(StorageError) -> Int64 {
        try StorageError.wrap(path, "reading feeds") { try queue.read { db in try Self.highWater(db) } }
    }

    static func highWater(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM feedmill_catalog WHERE key = 'feedid_high_water'") ?? 0
    }

    /// Records that feedids up to `id` have been given.
    static func raiseHighWater(_ db: Database, to id: Int64) throws {
        try db.execute(sql: "UPDATE feedmill_catalog SET value = MAX(value, ?) WHERE key = 'feedid_high_water'", arguments: [id])
    }

    /// Lists a new feed under `id`, stamped-to-be with the URL it is first listed under.
    static func insertNew(_ outline: CatalogOutline, id: Int64, inOPML: Bool, db: Database) throws -> CatalogFeed {
        // Cached: every feed of an import comes through here, and the statement carries the
        // change log's trigger, compiled with it (``CatalogChanges``).
        try db.cachedStatement(sql: "INSERT INTO feeds (feedid, url) VALUES (?, ?)").execute(arguments: [id, outline.url])
        var feed = CatalogFeed(feedID: id, url: outline.url)
        feed.state.originURL = outline.url
        feed.state.category = outline.category
        feed.state.opmlTitle = outline.title
        feed.state.siteLink = outline.siteLink
        feed.state.inOPML = inOPML
        try save(feed, db: db)
        return feed
    }

    /// Removes a feed's rows from every catalog table.
    static func deleteRows(of feedID: Int64, db: Database) throws {
        for table in ["feeds", "about", "last_update", "fetch_state"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE feedid = ?", arguments: [feedID])
        }
    }

    /// Runs a read of one statement, which SQLite makes atomic by itself, on the catalog's
    /// connection. Not `queue.read`: GRDB makes a `DatabaseQueue` read-only for the length of
    /// a read by setting `PRAGMA query_only`, and SQLite expires every prepared statement
    /// when such a flag changes, so each read made the connection compile its cached
    /// statements again (this join of four tables, and every statement of ``save(_:)``).
    private func readStatement<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.inDatabase(body)
    }

    /// The feedid (`?1`) as rowid, or the next free one when an older row already has it.
    private static func rowid(_ table: String) -> String {
        "(SELECT CASE WHEN EXISTS (SELECT 1 FROM \(table) WHERE rowid = ?1) THEN NULL ELSE ?1 END)"
    }

    static func save(_ feed: CatalogFeed, nextDue: Int64? = nil, db: Database) throws {
        let id = feed.feedID
        // Cached statements: every feed of every run is saved through here.
        try db.cachedStatement(sql: "UPDATE feeds SET url = ? WHERE feedid = ? AND url IS NOT ?").execute(arguments: [feed.url, id, feed.url])
        // The client tables' rows get rowid = feedid where it is free, not the next rowid: workers
        // save feeds in the order they finish, and rowids taken in that order would make two
        // runs over the same answers differ byte for byte.
        if let title = feed.title {
            try db.cachedStatement(sql: saveAbout).execute(
                arguments: [id, title, feed.link, feed.about.description, feed.about.imageURL, feed.about.language])
        }
        if let lastUpdate = feed.lastUpdate {
            try db.cachedStatement(
                sql: "INSERT INTO last_update (rowid, feedid, when_unix_time) VALUES (\(rowid("last_update")), ?1, ?2) "
                    + "ON CONFLICT(feedid) DO UPDATE SET when_unix_time = excluded.when_unix_time"
            ).execute(arguments: [id, lastUpdate])
        }
        try FetchStateColumns.save(feed, nextDue: nextDue, db: db)
        // The feed's database was committed before this save: its write, if marked, is a change.
        try CatalogChanges.markWritten(id, db: db)
    }

    /// The `about` row, written only when a value differs (an unchanged feed writes nothing).
    private static let saveAbout: String = {
        let columns = ["title"] + CatalogSchema.aboutReaderColumns
        let parameters = columns.indices.map { "?\($0 + 2)" }.joined(separator: ", ")
        return "INSERT INTO about (rowid, feedid, \(columns.joined(separator: ", "))) VALUES (\(rowid("about")), ?1, \(parameters)) "
            + "ON CONFLICT(feedid) DO UPDATE SET \(columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")) "
            + "WHERE \(columns.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR "))"
    }()

    /// Each feed's row, read by position (``feed(_:)``).
    static let selectFeeds = """
        SELECT feeds.feedid, feeds.url, about.title, last_update.when_unix_time,
            about.link, about.description, about.image_url, about.language, \(FetchStateColumns.selected)
        FROM feeds
        LEFT JOIN about ON about.feedid = feeds.feedid
        LEFT JOIN last_update ON last_update.feedid = feeds.feedid
        LEFT JOIN fetch_state ON fetch_state.feedid = feeds.feedid
        """

    /// Reads one feed's joined row. A value of the wrong type (written by hand: a writer's
    /// open repairs them, see ``CatalogValues``) reads as absent and is named in
    /// ``CatalogFeed/unreadable``, so reading never stops on one.
    static func feed(_ row: Row) -> CatalogFeed {
        var unreadable: [String] = []
        func read<Value: DatabaseValueConvertible>(_ index: Int, _ column: String) -> Value? {
            StoredValue.read(row, index, column, noting: &unreadable)
        }
        // An INTEGER PRIMARY KEY is always an integer.
        let feedID: Int64 = read(0, "feeds.feedid") ?? 0
        // A URL that is not text is kept as the bytes it holds: its fetch then says what is wrong with it.
        let url: String = read(1, "feeds.url") ?? StoredValue.lossyText(StoredValue.raw(row, 1))
        var feed = CatalogFeed(
            feedID: feedID, url: url, title: read(2, "about.title"), lastUpdate: read(3, "last_update.when_unix_time"),
            state: FetchStateColumns.state(row, at: 8, unreadable: &unreadable))
        feed.link = read(4, "about.link")
        feed.about = FeedDescription(
            description: read(5, "about.description"), imageURL: read(6, "about.image_url"), language: read(7, "about.language"))
        feed.unreadable = unreadable
        return feed
    }
}
