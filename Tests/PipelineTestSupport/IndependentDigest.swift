import FeedBasics
import Foundation
import GRDB

/// The content digest of the client contract, computed in the tests from the rows with GRDB: a second
/// implementation, so the publisher's and the client's are each checked against something
/// they do not share.
public enum IndependentDigest {
    public static func of(_ path: String, catalog: Bool) throws -> String {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try queue.read { db in
            var text = Data("feedmill-content-v1\n".utf8)
            let tables = catalog ? [("feeds", "feedid"), ("about", "feedid"), ("last_update", "feedid")] : [("items", "id")]
            for (table, key) in tables {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
                text.append(Data("\(table)\n\(columns.joined(separator: ","))\n".utf8))
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(key)") {
                    for value in row.databaseValues {
                        switch value.storage {
                        case .null: text.append(Data("n".utf8))
                        case .int64(let integer): text.append(Data("i\(integer);".utf8))
                        case .string(let string): text.append(Data("t\(string.utf8.count):\(string)".utf8))
                        case .double, .blob: text.append(Data("x".utf8))
                        }
                    }
                    text.append(Data("\n".utf8))
                }
            }
            return "sha256:" + SHA256.hexDigest([UInt8](text))
        }
    }
}
