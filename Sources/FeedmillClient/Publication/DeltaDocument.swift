import Foundation

/// A delta file (`feed_3.v6-v7.delta.json`): whole rows to insert or replace and ids to
/// delete, which turn version `from_version` of a feed into `to_version`.
struct DeltaDocument: Decodable {
    var format: String
    var formatVersion: Int
    var feedID: Int64
    var fromVersion: Int
    var toVersion: Int
    /// Absent in deltas written before the contract had it.
    var schemaVersion: Int?
    var toContentDigest: String?
    var columns: [String]
    var upserts: [[DeltaValue]]
    var deletes: [String]

    enum CodingKeys: String, CodingKey {
        case format, columns, upserts, deletes
        case formatVersion = "format_version"
        case feedID = "feedid"
        case fromVersion = "from_version"
        case toVersion = "to_version"
        case schemaVersion = "schema_version"
        case toContentDigest = "to_content_digest"
    }

    static let knownFormat = "feedmill-delta"
    static let knownFormatVersions = 1...1

    static func decode(_ data: Data, file: String) throws(ClientError) -> DeltaDocument {
        do {
            return try JSONDecoder().decode(DeltaDocument.self, from: data)
        } catch {
            throw .unusableDelta(file: file, reason: ClientError.describe(decoding: error))
        }
    }

    /// Refuses a delta that is not the step the client is about to take.
    func check(file: String, feedID: Int64, from: Int, to: Int, schemaVersion local: Int, contentDigest: String?) throws(ClientError) {
        func refuse(_ reason: String) -> ClientError { .unusableDelta(file: file, reason: reason) }
        guard format == Self.knownFormat, Self.knownFormatVersions.contains(formatVersion) else {
            throw refuse("its format is \(format) version \(formatVersion), which this client does not read")
        }
        guard self.feedID == feedID else { throw refuse("it is for feed \(self.feedID), not feed \(feedID)") }
        guard fromVersion == from, toVersion == to else {
            throw refuse("it goes from version \(fromVersion) to \(toVersion), not \(from) to \(to)")
        }
        if let schemaVersion, schemaVersion != local {
            throw refuse("it is for schema version \(schemaVersion); the local file has \(local)")
        }
        if let toContentDigest, let contentDigest, toContentDigest != contentDigest {
            throw refuse("it leads to content \(toContentDigest), the manifest names \(contentDigest)")
        }
        guard columns.first == "id", !columns.isEmpty else { throw refuse("its first column is not id") }
        guard upserts.allSatisfy({ $0.count == columns.count }) else { throw refuse("a row does not have one value per column") }
    }

    /// Applies the delta to the database at `path` in one transaction: the file holds the old
    /// version or the new one, never a mix.
    func apply(to path: String) throws(ClientError) {
        let connection = try SQLiteConnection(path: path, readOnly: false)
        defer { connection.close() }
        let quoted = columns.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(ClientError) {
            // Deletes first, then upserts, as the contract (and the delta schema) says.
            let delete = try connection.prepare("DELETE FROM items WHERE id = ?")
            for id in deletes { try delete.run([.text(Array(id.utf8))]) }
            let insert = try connection.prepare(
                "INSERT OR REPLACE INTO items (\(quoted.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
            for row in upserts { try insert.run(row.map(\.sqlite)) }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}

/// One value of a delta row: JSON null, an integer, a string (a real only if a file was edited
/// by hand; the publisher never writes one).
enum DeltaValue: Decodable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    init(from decoder: any Decoder) throws {
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

    var sqlite: SQLiteValue {
        switch self {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(Array(text.utf8))
        }
    }
}
