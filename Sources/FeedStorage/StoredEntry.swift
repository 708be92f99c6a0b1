import FeedBasics
import FeedModel
import GRDB

/// An entry as a row of `items`.
struct StoredEntry {
    let entry: Entry
    let now: Int64
    /// SHA-256 over what a client shows (not over first-seen times, which differ between runs).
    let contentHash: String
    /// The reader fields' canonical JSON (``ReaderFieldsJSON``), `nil` for none.
    let enclosuresJSON: [UInt8]?
    let categoriesJSON: [UInt8]?
    let authorsJSON: [UInt8]?

    var id: String { entry.id }

    private static let separator: [UInt8] = [0x1F]

    init(_ entry: Entry, now: Int64) {
        self.entry = entry
        self.now = now
        enclosuresJSON = ReaderFieldsJSON.enclosures(entry.enclosures)
        categoriesJSON = ReaderFieldsJSON.categories(entry.categories)
        authorsJSON = ReaderFieldsJSON.authors(entry.authors)
        let rest: [String] = [
            entry.permalink ?? "", entry.pubdate.map(String.init) ?? "", entry.updated.map(String.init) ?? "",
            entry.author ?? "", entry.idSource.rawValue,
        ]
        // Title, summary and the rest joined by U+001F, hashed piece by piece: joining them
        // first copied every summary once more (a megabyte for a full-text entry) only to hash it.
        var hasher = SHA256()
        hasher.update(entry.title)
        hasher.update(Self.separator)
        hasher.update(entry.summary.utf8)
        for field in rest {
            hasher.update(Self.separator)
            hasher.update(field)
        }
        // The reader fields (image, enclosures, categories, authors) as they are stored, only
        // when the entry has one: an entry without any hashes as it did before they were
        // stored, so a database migrated in place does not rewrite every such row once.
        if entry.image != nil || enclosuresJSON != nil || categoriesJSON != nil || authorsJSON != nil {
            hasher.update(Self.separator)
            hasher.update(entry.image ?? "")
            hasher.update(Self.separator)
            hasher.update(enclosuresJSON ?? [])
            hasher.update(Self.separator)
            hasher.update(categoriesJSON ?? [])
            hasher.update(Self.separator)
            hasher.update(authorsJSON ?? [])
        }
        contentHash = SHA256.hex(hasher.finalize())
    }

    /// Prepared once per connection (GRDB's statement cache), not once per row: preparing was
    /// a fifth of a cold run's instructions. Bound in place (``DirectStatement``).
    func insert(_ db: Database, changeSequence: Int64) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO items (id, title, summary, pubdate_unix_time, permalink, updated_unix_time, author,
                    first_seen_unix_time, pubdate_is_first_seen, id_source, content_hash, change_seq,
                    image_url, enclosures_json, categories_json, authors_json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        )
        try DirectStatement.execute(
            statement,
            [
                .text(entry.id), .text(entry.title), .bytes(entry.summary.utf8), .integer(entry.pubdate ?? now), .init(entry.permalink),
                .init(entry.updated), .init(entry.author), .integer(now), .integer(entry.pubdate == nil ? 1 : 0),
                .text(entry.idSource.rawValue), .text(contentHash), .integer(changeSequence),
                .init(entry.image), .init(enclosuresJSON), .init(categoriesJSON), .init(authorsJSON),
            ], in: db)
    }

    /// Rewrites a changed entry. An undated entry keeps the pubdate it was first given; a row
    /// from before Feedmill (no first-seen time) gets `now` as its first-seen time.
    func update(_ db: Database, changeSequence: Int64) throws {
        let statement = try db.cachedStatement(
            sql: """
                UPDATE items SET title = ?, summary = ?, permalink = ?, updated_unix_time = ?, author = ?,
                    id_source = ?, content_hash = ?, change_seq = ?,
                    image_url = ?, enclosures_json = ?, categories_json = ?, authors_json = ?,
                    pubdate_unix_time = CASE WHEN ? IS NULL THEN pubdate_unix_time ELSE ? END,
                    pubdate_is_first_seen = CASE WHEN ? IS NULL THEN pubdate_is_first_seen ELSE 0 END,
                    first_seen_unix_time = IFNULL(first_seen_unix_time, ?)
                WHERE id = ?
                """
        )
        try DirectStatement.execute(
            statement,
            [
                .text(entry.title), .bytes(entry.summary.utf8), .init(entry.permalink), .init(entry.updated), .init(entry.author),
                .text(entry.idSource.rawValue), .text(contentHash), .integer(changeSequence),
                .init(entry.image), .init(enclosuresJSON), .init(categoriesJSON), .init(authorsJSON), .init(entry.pubdate),
                .init(entry.pubdate), .init(entry.pubdate), .integer(now), .text(entry.id),
            ], in: db)
    }
}
