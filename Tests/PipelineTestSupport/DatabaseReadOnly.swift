import FeedBasics
import FeedFetching
import FeedModel
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import GRDB
import GRDBSQLite
import TestSupport


/// A read-only look at a SQLite file through the C library, independent of the code under
/// test (GRDB and FeedStorage), so tests check what is really in the file.
public final class DatabaseReadOnly {
    private var handle: OpaquePointer?

    public init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw ReadError.open(path)
        }
    }

    deinit {
        sqlite3_close(handle)
    }

    public func rows(_ query: String) throws -> [[String?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, query, -1, &statement, nil) == SQLITE_OK else {
            throw ReadError.query(query, String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String?]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) }
            })
        }
        return rows
    }

    public enum ReadError: Error {
        case open(String)
        case query(String, String)
    }
}
