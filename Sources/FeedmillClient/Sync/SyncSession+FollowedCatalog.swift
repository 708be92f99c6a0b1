import Foundation

/// Following some feeds in format 2 with ``PublicationSync/CatalogSource/followed``: every
/// followed feed's pointer (revalidated as always), each feed brought to its usable entry, and
/// `all_feeds.sqlite` written by the client with the followed feeds' rows from their pointers'
/// `about`, so a phone following 50 of a million feeds never downloads the catalog to show 50
/// titles (issue 51).
extension SyncSession {
    /// Returns false, having synced what it could, when a pointer carries no `about` (a
    /// publisher from before issue 51): the caller then syncs with the published catalog.
    func syncFollowedOnly(_ ids: Set<Int64>, root: RootManifest) async -> Bool {
        let followed = ids.sorted()
        filesToSync = followed.count
        tellProgress()
        let answers = shouldStop ? [:] : await fetchPointers(followed, root: root)
        var rows: [Int64: CatalogRow] = [:]
        // Feeds whose pointer could not be read or has no entry usable for this root, or not
        // reached before the sync stopped: their row and file are kept as they are.
        var keep: Set<Int64> = []
        for feedID in followed {
            defer { fileDone(SafeName.feed(feedID)) }
            guard !shouldStop else {
                keep.insert(feedID)
                report.left.append(SafeName.feed(feedID))
                continue
            }
            guard let answer = answers[feedID] else { continue }
            switch await syncFeed(feedID, root: root, answer: answer) {
            case .published(let pointer, let entry):
                guard let about = pointer.about else { return false }
                rows[feedID] = CatalogRow(feedID: feedID, about: about, lastUpdate: entry.file.lastUpdate)
            case .failed, .notUsable:
                keep.insert(feedID)
            case .notPublished:
                // No pointer: the feed is not published, yet or any more (a feed removed keeps
                // its pointer for the publisher's grace period, then it goes).
                break
            }
        }
        let names = Set(followed.map(root.pointerName(for:)))
        state.pointers = state.pointers.filter { names.contains($0.key) }
        do throws(ClientError) {
            try writeFollowedCatalog(rows, keeping: keep)
        } catch {
            report.problems.append(SyncProblem(file: SafeName.catalog, error: error))
            report.catalog = CatalogCheck(action: .failed, reason: "written from the followed feeds' pointers")
        }
        // What the client holds is what is published and followed, and what it could not check.
        removeFeeds(keeping: Set(Set(rows.keys).union(keep).map(SafeName.feed)))
        report.notPublished.sort()
        return true
    }

    /// Writes `all_feeds.sqlite` with `rows`, and the rows of `keeping` as the local catalog
    /// has them; nothing when it already holds exactly that. A temporary, checked, renamed
    /// into place, as every file the client writes.
    private func writeFollowedCatalog(_ rows: [Int64: CatalogRow], keeping: Set<Int64>) throws(ClientError) {
        let name = SafeName.catalog
        let local = state.files[name]
        guard local != nil || !folder.exists(name) else { throw .foreignFile(path: folder.path(name)) }
        let held = local?.built == true && folder.exists(name) ? (try? CatalogRow.read(folder.path(name))) ?? [:] : [:]
        var wanted = rows
        for id in keeping { if let row = held[id] { wanted[id] = row } }
        if local?.built == true, held == wanted, let stamp = folder.stamp(name), stamp.size == local?.size, stamp.modified == local?.modified {
            report.catalog = CatalogCheck(action: .unchanged, reason: "\(wanted.count) followed feeds, from their pointers")
            return
        }
        let temporary = try folder.writeTemporary(Data(), for: name)
        do throws(ClientError) {
            try CatalogRow.write(wanted.values.sorted { $0.feedID < $1.feedID }, to: folder.path(temporary))
            let digest = try ContentDigest.of(folder.path(temporary), kind: .catalog)
            // Claimed before the rename, as every file: a kill right after leaves a file the
            // client knows is its own.
            state.files[name] = ClientState.LocalFile(kind: .catalog, built: true)
            try state.save(in: folder)
            try folder.install(temporary, as: name)
            let stamp = folder.stamp(name)
            state.files[name] = ClientState.LocalFile(
                kind: .catalog, schemaVersion: CatalogRow.schemaVersion, contentDigest: digest, size: stamp?.size, modified: stamp?.modified, built: true)
            try state.save(in: folder)
        } catch {
            folder.discard(temporary)
            throw error
        }
        report.catalog = CatalogCheck(action: .built, reason: "\(wanted.count) followed feeds, from their pointers")
    }
}

/// One feed's rows in a client's own catalog: `feeds`, `about`, `last_update`, as the
/// published catalog has them (docs/client-contract.md, the published tables).
struct CatalogRow: Equatable {
    var feedID: Int64
    var url: String
    var title: String?
    var link: String?
    var description: String?
    var imageURL: String?
    var language: String?
    var lastUpdate: Int64?

    /// The published catalog's schema version, which the tables below are.
    static let schemaVersion = 2

    static let tables = [
        "CREATE TABLE feeds (feedid INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE)",
        "CREATE TABLE about (feedid INTEGER UNIQUE, title TEXT, link TEXT, description TEXT, image_url TEXT, language TEXT)",
        "CREATE TABLE last_update (feedid INTEGER UNIQUE, when_unix_time INTEGER)",
    ]

    init(feedID: Int64, url: String, title: String?, link: String?, description: String?, imageURL: String?, language: String?, lastUpdate: Int64?) {
        (self.feedID, self.url, self.title, self.link, self.description) = (feedID, url, title, link, description)
        (self.imageURL, self.language, self.lastUpdate) = (imageURL, language, lastUpdate)
    }

    /// A link that is not `http`/`https` is left out: the pointer's schema allows no other,
    /// and an app may open what it finds here.
    init(feedID: Int64, about: FeedAbout, lastUpdate: Int64?) {
        self.init(
            feedID: feedID, url: about.url, title: about.title, link: about.link.flatMap(Self.webLink), description: about.description,
            imageURL: about.imageURL.flatMap(Self.webLink), language: about.language, lastUpdate: lastUpdate)
    }

    static func webLink(_ text: String) -> String? {
        guard let scheme = URL(string: text)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return text
    }

    /// A catalog this client wrote, by feedid.
    static func read(_ path: String) throws(ClientError) -> [Int64: CatalogRow] {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        defer { connection.close() }
        let statement = try connection.prepare("""
            SELECT feeds.feedid, feeds.url, about.title, about.link, about.description, about.image_url, about.language, last_update.when_unix_time
            FROM feeds LEFT JOIN about ON about.feedid = feeds.feedid LEFT JOIN last_update ON last_update.feedid = feeds.feedid
            """)
        var rows: [Int64: CatalogRow] = [:]
        func text(_ index: Int) -> String? {
            if case .text(let bytes) = statement.value(at: index) { return String(decoding: bytes, as: UTF8.self) }
            return nil
        }
        while try statement.step() {
            guard let id = statement.value(at: 0).integer, let url = text(1) else { continue }
            rows[id] = CatalogRow(
                feedID: id, url: url, title: text(2), link: text(3), description: text(4), imageURL: text(5), language: text(6),
                lastUpdate: statement.value(at: 7).integer)
        }
        return rows
    }

    /// Writes `rows` into the new (empty) database at `path`, in one transaction.
    static func write(_ rows: [CatalogRow], to path: String) throws(ClientError) {
        let connection = try SQLiteConnection(path: path, readOnly: false)
        defer { connection.close() }
        try connection.execute("PRAGMA journal_mode = DELETE; BEGIN; " + tables.joined(separator: "; ") + "; PRAGMA user_version = \(schemaVersion)")
        let feeds = try connection.prepare("INSERT INTO feeds (feedid, url) VALUES (?, ?)")
        let about = try connection.prepare("INSERT INTO about (feedid, title, link, description, image_url, language) VALUES (?, ?, ?, ?, ?, ?)")
        let lastUpdate = try connection.prepare("INSERT INTO last_update (feedid, when_unix_time) VALUES (?, ?)")
        func value(_ text: String?) -> SQLiteValue { text.map { .text(Array($0.utf8)) } ?? .null }
        // As the publisher writes its catalog: an `about` row once the feed has a title, a
        // `last_update` row once its items were stored.
        for row in rows {
            try feeds.run([.integer(row.feedID), value(row.url)])
            if row.title != nil {
                try about.run([.integer(row.feedID), value(row.title), value(row.link), value(row.description), value(row.imageURL), value(row.language)])
            }
            if let when = row.lastUpdate { try lastUpdate.run([.integer(row.feedID), .integer(when)]) }
        }
        try connection.execute("COMMIT")
    }
}
