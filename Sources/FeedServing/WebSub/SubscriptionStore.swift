import FeedBasics
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// `rss-serve`'s own file in the data directory, `websub.sqlite`: its subscriptions, their
/// secrets (which is why the file is created mode 0600) and states. No other command writes
/// it, and `rss-serve` writes nothing else there but through the pipeline, under its lock.
public final class SubscriptionStore: Sendable {
    public static let fileName = "websub.sqlite"
    let queue: DatabaseQueue
    public let path: String

    public init(dataDirectory: String) throws {
        path = (dataDirectory as NSString).appendingPathComponent(Self.fileName)
        // Created 0600 before SQLite opens it: secrets are never readable by others, not for a moment.
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError(message: "cannot open \(path): \(SystemError.describe(errno))") }
        close(descriptor)
        queue = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("websub-subscriptions") { db in
            try db.execute(sql: """
                CREATE TABLE subscriptions (
                    feedid INTEGER PRIMARY KEY, hub TEXT NOT NULL, topic TEXT NOT NULL, callback TEXT NOT NULL UNIQUE,
                    secret TEXT NOT NULL, state TEXT NOT NULL, lease_until INTEGER, requested_at INTEGER NOT NULL,
                    last_error TEXT, pushes INTEGER NOT NULL DEFAULT 0)
                """)
        }
        try migrator.migrate(queue)
    }

    public struct StoreError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public func all() throws -> [Subscription] {
        try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM subscriptions ORDER BY feedid").compactMap(Self.subscription) }
    }

    public func subscription(callback: String) throws -> Subscription? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM subscriptions WHERE callback = ?", arguments: [callback]).flatMap(Self.subscription)
        }
    }

    public func save(_ subscription: Subscription) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO subscriptions
                        (feedid, hub, topic, callback, secret, state, lease_until, requested_at, last_error, pushes)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    subscription.feedID, subscription.hub, subscription.topic, subscription.callback, subscription.secret,
                    subscription.state.rawValue, subscription.leaseUntil, subscription.requestedAt, subscription.lastError,
                    subscription.pushes,
                ])
        }
    }

    /// Changes one subscription in place, if it is still there (the hub's verification and the
    /// subscriber's loop may both touch it).
    @discardableResult
    public func update(callback: String, _ change: @Sendable (inout Subscription) -> Void) throws -> Subscription? {
        try queue.write { db in
            guard var found = try Row.fetchOne(db, sql: "SELECT * FROM subscriptions WHERE callback = ?", arguments: [callback])
                .flatMap(Self.subscription)
            else { return nil }
            change(&found)
            try db.execute(
                sql: "UPDATE subscriptions SET state = ?, lease_until = ?, requested_at = ?, last_error = ?, pushes = ? WHERE callback = ?",
                arguments: [found.state.rawValue, found.leaseUntil, found.requestedAt, found.lastError, found.pushes, callback])
            return found
        }
    }

    public func remove(callback: String) throws {
        try queue.write { db in try db.execute(sql: "DELETE FROM subscriptions WHERE callback = ?", arguments: [callback]) }
    }

    /// A row written by hand with a state this version does not know reads as nothing: it is
    /// subscribed afresh.
    private static func subscription(_ row: Row) -> Subscription? {
        guard let state = Subscription.State(rawValue: row["state"] ?? "") else { return nil }
        return Subscription(
            feedID: row["feedid"], hub: row["hub"], topic: row["topic"], callback: row["callback"], secret: row["secret"],
            state: state, leaseUntil: row["lease_until"], requestedAt: row["requested_at"], lastError: row["last_error"],
            pushes: row["pushes"] ?? 0)
    }
}
