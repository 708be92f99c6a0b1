import Foundation

#if canImport(SQLite3)
internal import SQLite3
#else
internal import CFeedmillSQLite
#endif

/// The few SQLite calls the client makes, over the C API: open a downloaded file, read its
/// rows for the content digest, apply a delta in one transaction. No GRDB: the library must
/// stand alone in an app, and apps bring their own SQLite layer.
///
/// Not `Sendable`: one connection is used by one sync, start to finish, and closed by it.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    let path: String

    /// Opens an existing file; never creates one (a missing file is a missing file) unless
    /// `create` (the client's own reading-state database, which also ATTACHes feeds read-only by
    /// a `file:…?mode=ro` URI: URI names on, whatever the SQLite build's default; a plain
    /// absolute path reads the same either way).
    init(path: String, readOnly: Bool, create: Bool = false) throws(ClientError) {
        self.path = path
        var opened: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | (create ? SQLITE_OPEN_CREATE | SQLITE_OPEN_URI : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard code == SQLITE_OK else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(code)"
            close()
            throw .database(path: path, message: "cannot be opened: \(message)")
        }
        sqlite3_busy_timeout(opened, 5_000)
    }

    deinit { close() }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(ClientError) {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw .database(path: path, message: message)
        }
    }

    /// A prepared statement; it is finalized when it goes out of use.
    func prepare(_ sql: String) throws(ClientError) -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw .database(path: path, message: "\(lastError) in \(sql)")
        }
        return SQLiteStatement(statement, connection: self)
    }

    /// The first column of the first row, as an integer (`PRAGMA user_version`, counts).
    func integer(_ sql: String) throws(ClientError) -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.value(at: 0).integer
    }

    var lastError: String {
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed"
    }
}

/// One prepared statement of a ``SQLiteConnection``.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    /// Moves to the next row: true while there is one.
    func step() throws(ClientError) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw .database(path: connection.path, message: connection.lastError)
        }
    }

    var columnCount: Int { Int(sqlite3_column_count(statement)) }

    func columnName(_ index: Int) -> String {
        sqlite3_column_name(statement, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// A column of the current row, as SQLite stores it (no conversion between types).
    func value(at index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return .text(bytes(column, sqlite3_column_text(statement, column).map(UnsafeRawPointer.init)))
        case SQLITE_BLOB: return .blob(bytes(column, sqlite3_column_blob(statement, column)))
        default: return .null
        }
    }

    private func bytes(_ column: Int32, _ pointer: UnsafeRawPointer?) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let pointer, count > 0 else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Binds `values` to the parameters 1…n, then runs the statement to its end and resets it
    /// for the next use.
    func run(_ values: [SQLiteValue]) throws(ClientError) {
        try bind(values)
        while try step() {}
    }

    /// Binds `values` for the rows ``step()`` then reads.
    func bind(_ values: [SQLiteValue]) throws(ClientError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, index)
            case .integer(let integer): code = sqlite3_bind_int64(statement, index, integer)
            case .real(let real): code = sqlite3_bind_double(statement, index, real)
            case .text(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    guard let base = buffer.baseAddress, !buffer.isEmpty else { return sqlite3_bind_text(statement, index, "", 0, transient) }
                    return sqlite3_bind_text(statement, index, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), transient)
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    // A NULL pointer would bind NULL, not an empty blob.
                    guard let base = buffer.baseAddress, !buffer.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
                    return sqlite3_bind_blob(statement, index, base, Int32(buffer.count), transient)
                }
            }
            guard code == SQLITE_OK else { throw .database(path: connection.path, message: connection.lastError) }
        }
    }
}

/// `SQLITE_TRANSIENT`, a C macro Swift cannot import: SQLite copies the bound bytes.
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// A value as SQLite stores it: text and blobs as their bytes, so the content digest hashes
/// exactly what the file holds.
enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
