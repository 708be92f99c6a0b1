import Foundation

/// Which items the user read or starred, kept on the device beside the feeds
/// (`.feedmill-reading-state.sqlite`) and shared with the user's other devices through
/// `rss-serve`'s `/v1/state` (docs/client-contract.md, "Reading state"). Marks live in their
/// own database, so a snapshot or delta replacing a feed's file keeps them; a mark goes when
/// retention removes its item (``prune()``, also run by ``sync(server:token:transport:)``).
///
/// Each call opens the database and closes it: an app calls ``mark(feedID:id:read:starred:at:)``
/// from its UI and ``sync(server:token:transport:)`` from its sync task without sharing a
/// connection. SQLite serialises their writes.
public struct ReadingState: Sendable {
    public let folder: URL

    /// Most marks sent in one POST (the server takes at most 5,000 and 1 MiB).
    static let marksPerPost = 1000
    /// Most bytes of a GET's answer (1,000 marks of long ids fit many times).
    static let answerByteLimit = 8 << 20

    public init(folder: URL) {
        self.folder = folder
    }

    /// Sets read and/or starred for one item, now (or `at`), to be sent at the next sync. The
    /// latest action on this device wins locally, whatever its clock says.
    public func mark(feedID: Int64, id: String, read: Bool? = nil, starred: Bool? = nil, at date: Date = Date()) throws(ClientError) {
        guard read != nil || starred != nil else { return }
        let database = try ReadingStateDatabase(folder: folder)
        // A time no clock gives (NaN, before 1970, past any year) is not a trap: clamped.
        let since1970 = date.timeIntervalSince1970
        let seconds = since1970.isFinite ? Int64(max(0, min(since1970, 9e15))) : 0
        let held = try database.mark(feedID: feedID, id: id)
        var mark = held?.mark ?? ItemMark(feedID: feedID, id: id)
        var readPending = held?.readPending ?? false, starredPending = held?.starredPending ?? false
        if let read {
            mark.read = MarkedValue(read, at: max(seconds, mark.read?.at ?? 0))
            readPending = true
        }
        if let starred {
            mark.starred = MarkedValue(starred, at: max(seconds, mark.starred?.at ?? 0))
            starredPending = true
        }
        try database.write(mark, readPending: readPending, starredPending: starredPending)
    }

    /// One item's mark, if it has one.
    public func mark(feedID: Int64, id: String) throws(ClientError) -> ItemMark? {
        try ReadingStateDatabase(folder: folder).mark(feedID: feedID, id: id)?.mark
    }

    /// Every mark of a feed (an app joins them with the feed's items by `id`).
    public func marks(feedID: Int64) throws(ClientError) -> [ItemMark] {
        let database = try ReadingStateDatabase(folder: folder)
        let statement = try database.connection.prepare(
            "SELECT id, read, read_at, starred, starred_at FROM marks WHERE feedid = ? ORDER BY id")
        try statement.bind([.integer(feedID)])
        var marks: [ItemMark] = []
        while try statement.step() {
            guard case .text(let id) = statement.value(at: 0) else { continue }
            marks.append(
                ItemMark(
                    feedID: feedID, id: String(decoding: id, as: UTF8.self), read: ReadingStateDatabase.field(statement, 1),
                    starred: ReadingStateDatabase.field(statement, 3)))
        }
        return marks
    }

    /// Marks set here and not yet sent.
    public func pendingCount() throws(ClientError) -> Int {
        Int(try ReadingStateDatabase(folder: folder).connection.integer("SELECT count(*) FROM marks WHERE read_pending = 1 OR starred_pending = 1") ?? 0)
    }

    /// Drops the marks of items retention removed: an item the feed's file held once and holds
    /// no more, or every item of a feed whose file is gone (no longer followed, or left the
    /// publication). A mark of an item not yet in the file (set on another device, the feed not
    /// yet synced here) is kept until it arrives; one not yet sent is kept until it is.
    @discardableResult
    public func prune() throws(ClientError) -> Int {
        let database = try ReadingStateDatabase(folder: folder)
        let connection = database.connection
        let feeds = try connection.prepare("SELECT DISTINCT feedid FROM marks")
        var feedIDs: [Int64] = []
        while try feeds.step() { if let id = feeds.value(at: 0).integer { feedIDs.append(id) } }
        var dropped = 0
        for feedID in feedIDs {
            let path = folder.appendingPathComponent(SafeName.feed(feedID)).path
            let before = try connection.integer("SELECT count(*) FROM marks") ?? 0
            if FileManager.default.fileExists(atPath: path) {
                // Read-only, by URI: the feed's file is never written from here.
                let uri = "file:" + path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "?mode=ro"
                try connection.prepare("ATTACH DATABASE ? AS feed").run([.text(Array(uri.utf8))])
                do throws(ClientError) {
                    try connection.execute("BEGIN IMMEDIATE")
                    try connection.prepare("UPDATE marks SET seen = 1 WHERE feedid = ? AND seen = 0 AND id IN (SELECT id FROM feed.items)").run([.integer(feedID)])
                    try connection.prepare(
                        "DELETE FROM marks WHERE feedid = ? AND seen = 1 AND read_pending = 0 AND starred_pending = 0 AND id NOT IN (SELECT id FROM feed.items)"
                    ).run([.integer(feedID)])
                    try connection.execute("COMMIT")
                } catch {
                    try? connection.execute("ROLLBACK")
                    try? connection.execute("DETACH DATABASE feed")
                    throw error
                }
                try connection.execute("DETACH DATABASE feed")
            } else {
                try connection.prepare("DELETE FROM marks WHERE feedid = ? AND seen = 1 AND read_pending = 0 AND starred_pending = 0").run([.integer(feedID)])
            }
            dropped += Int(before - (try connection.integer("SELECT count(*) FROM marks") ?? 0))
        }
        return dropped
    }
}
