import FeedStorage
import Foundation
import GRDB

/// A feed's changes from one published version to another: rows inserted or updated (whole
/// rows, in `columns` order, sorted by id) and ids removed. A client holding version `from`
/// applies it with one `INSERT OR REPLACE` per upsert and one `DELETE` per id, in one
/// transaction, and then holds exactly version `to`.
public struct Delta: Codable, Equatable, Sendable {
    public var format = "feedmill-delta"
    public var formatVersion = 1
    public var feedID: Int64
    public var fromVersion: Int
    public var toVersion: Int
    public var columns: [String]
    public var upserts: [[DeltaValue]]
    public var deletes: [String]

    enum CodingKeys: String, CodingKey {
        case format, columns, upserts, deletes
        case formatVersion = "format_version"
        case feedID = "feedid"
        case fromVersion = "from_version"
        case toVersion = "to_version"
    }

    /// The difference between two snapshots' items.
    public init(
        feedID: Int64, from: Int, to: Int, old: [String: [DatabaseValue]], new: [String: [DatabaseValue]]
    ) {
        self.feedID = feedID
        fromVersion = from
        toVersion = to
        columns = Snapshot.itemColumns
        upserts = new.keys.sorted().compactMap { id in
            guard let row = new[id], old[id] != row else { return nil }
            return row.map(DeltaValue.init)
        }
        deletes = old.keys.filter { new[$0] == nil }.sorted()
    }

    /// Applies the delta to items read from a snapshot: the reference for clients.
    public func apply(to items: inout [String: [DatabaseValue]]) {
        for id in deletes { items[id] = nil }
        for row in upserts {
            guard case .text(let id)? = row.first else { continue }
            items[id] = row.map(\.databaseValue)
        }
    }

    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self))
    }
}

/// One SQLite value in JSON: `null`, an integer, a real, or a string.
public enum DeltaValue: Codable, Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let real): self = .real(real)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .text(data.base64EncodedString())
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let integer): return integer.databaseValue
        case .real(let real): return real.databaseValue
        case .text(let text): return text.databaseValue
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let real = try? container.decode(Double.self) {
            self = .real(real)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let integer): try container.encode(integer)
        case .real(let real): try container.encode(real)
        case .text(let text): try container.encode(text)
        }
    }
}
