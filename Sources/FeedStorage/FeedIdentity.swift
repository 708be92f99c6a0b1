import GRDB

/// The feed a database file belongs to: its feedid and the URL the feed had when the catalog
/// first listed it (which never changes, even when redirects move the feed's URL).
public struct FeedIdentity: Sendable, Equatable {
    public var feedID: Int64
    public var originURL: String

    public init(feedID: Int64, originURL: String) {
        self.feedID = feedID
        self.originURL = originURL
    }

    static func read(_ db: Database) throws -> FeedIdentity? {
        try Row.fetchOne(db, sql: "SELECT feedid, origin_url FROM feedmill_feed LIMIT 1").map {
            FeedIdentity(feedID: $0["feedid"], originURL: $0["origin_url"])
        }
    }

    func stamp(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM feedmill_feed")
        try db.execute(sql: "INSERT INTO feedmill_feed (feedid, origin_url) VALUES (?, ?)", arguments: [feedID, originURL])
    }
}
