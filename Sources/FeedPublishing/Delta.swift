import FeedStorage
import Foundation

/// A feed's changes from one published version to another: rows inserted or updated (whole
/// rows, in `columns` order, sorted by id) and ids removed. A client holding version `from`
/// applies it with one `INSERT OR REPLACE` per upsert and one `DELETE` per id, in one
/// transaction, and then holds exactly version `to`: rows whose ``ContentDigest`` is
/// `toContentDigest`. Deltas are only made between two versions of one schema version.
public struct Delta: Codable, Equatable, Sendable {
    public var format = "feedmill-delta"
    public var formatVersion = 1
    public var feedID: Int64
    public var fromVersion: Int
    public var toVersion: Int
    /// The schema version of both ends (`PRAGMA user_version` of both snapshots). Absent
    /// from deltas written before it was recorded (all of schema version 1).
    public var schemaVersion: Int?
    /// The content digest of version `to`, as the manifest gives it: what the client's copy
    /// must have once the delta is applied. Absent from deltas written before it existed.
    public var toContentDigest: String?
    public var columns: [String]
    public var upserts: [[SQLValue]]
    public var deletes: [String]

    enum CodingKeys: String, CodingKey {
        case format, columns, upserts, deletes
        case formatVersion = "format_version"
        case feedID = "feedid"
        case fromVersion = "from_version"
        case toVersion = "to_version"
        case schemaVersion = "schema_version"
        case toContentDigest = "to_content_digest"
    }

    /// The difference between two snapshots' items, both of `schemaVersion`; `toContentDigest`
    /// is the new one's.
    public init(
        feedID: Int64, from: Int, to: Int, schemaVersion: Int = Snapshot.feedSchemaVersion, toContentDigest: String,
        old: [String: [SQLValue]], new: [String: [SQLValue]]
    ) {
        self.feedID = feedID
        fromVersion = from
        toVersion = to
        self.schemaVersion = schemaVersion
        self.toContentDigest = toContentDigest
        columns = Snapshot.itemColumns
        upserts = new.keys.sorted().compactMap { id in
            guard let row = new[id], old[id] != row else { return nil }
            return row
        }
        deletes = old.keys.filter { new[$0] == nil }.sorted()
    }

    /// Applies the delta to items read from a snapshot: the reference for clients.
    public func apply(to items: inout [String: [SQLValue]]) {
        for id in deletes { items[id] = nil }
        for row in upserts {
            guard case .text(let id)? = row.first else { continue }
            items[id] = row
        }
    }

    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self))
    }
}
