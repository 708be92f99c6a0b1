import Foundation

/// The content digest of a published database (the client contract, `content_digest`): a
/// SHA-256 over its rows, not its bytes, so a file patched with deltas can be checked against
/// the manifest although its bytes differ from the published file's.
///
/// The byte string hashed: `feedmill-content-v1\n`, then for each client table its name and
/// its column names (joined by `,`), each followed by `\n`, then its rows in key order, each
/// value as `n` (NULL), `i<digits>;` (INTEGER), `t<length>:<UTF-8 bytes>` (TEXT), and `\n`
/// after each row. A feed has one table, `items`, ordered by `id`; the catalog has `feeds`,
/// `about` and `last_update`, each ordered by `feedid`. Columns are read from the file itself,
/// so a schema that added columns is digested with them, as the publisher wrote them.
enum ContentDigest {
    static let prefix = "sha256:"

    /// The tables a feed database's digest covers, and the key each is ordered by.
    static let feedTables = [(table: "items", key: "id")]
    static let catalogTables = [(table: "feeds", key: "feedid"), (table: "about", key: "feedid"), (table: "last_update", key: "feedid")]

    /// `sha256:` and 64 lowercase hex digits, for the database at `path`.
    static func of(_ path: String, kind: DatabaseKind) throws(ClientError) -> String {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        defer { connection.close() }
        var hasher = SHA256Hasher()
        hasher.update("feedmill-content-v1\n")
        for (table, key) in kind == .catalog ? catalogTables : feedTables {
            // The publisher writes only these names; quoting keeps a hand-made file from
            // turning a name into SQL.
            let statement = try connection.prepare("SELECT * FROM \"\(table)\" ORDER BY \"\(key)\"")
            hasher.update(table + "\n")
            hasher.update((0..<statement.columnCount).map(statement.columnName).joined(separator: ",") + "\n")
            var row: [UInt8] = []
            while try statement.step() {
                row.removeAll(keepingCapacity: true)
                for index in 0..<statement.columnCount {
                    encode(statement.value(at: index), into: &row)
                }
                row.append(0x0A)
                hasher.update(row)
            }
        }
        return prefix + SHA256Hasher.hex(hasher.finalize())
    }

    /// One value as the digest's byte string has it.
    static func encode(_ value: SQLiteValue, into bytes: inout [UInt8]) {
        switch value {
        case .null:
            bytes.append(UInt8(ascii: "n"))
        case .integer(let integer):
            bytes.append(UInt8(ascii: "i"))
            bytes.append(contentsOf: String(integer).utf8)
            bytes.append(UInt8(ascii: ";"))
        case .text(let text):
            lengthPrefixed("t", text, into: &bytes)
        case .real(let real):
            // Never published: digested so that a file holding one simply does not match.
            lengthPrefixed("r", Array("\(real)".utf8), into: &bytes)
        case .blob(let blob):
            lengthPrefixed("b", blob, into: &bytes)
        }
    }

    private static func lengthPrefixed(_ tag: Unicode.Scalar, _ payload: [UInt8], into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: tag))
        bytes.append(contentsOf: String(payload.count).utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: payload)
    }
}

/// The two kinds of database a publication holds: the catalog (`all_feeds`) and a feed's.
public enum DatabaseKind: String, Codable, Sendable {
    case catalog
    case feed
}
