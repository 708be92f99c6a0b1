import GRDB
import GRDBSQLite

/// Runs one of GRDB's cached statements through SQLite's C API with its text bound in place
/// (`SQLITE_STATIC`), for the per-entry statements of ``FeedUpsert``; and steps a statement's
/// rows without making a GRDB `Row` of each (``forEachRow(_:in:_:)``).
///
/// Why: GRDB binds a `String` with `SQLITE_TRANSIENT`, so SQLite copies it first. For a
/// full-text entry that was one more megabyte alive while the row was written, at the moment
/// of a run's peak memory; and boxing every argument into a `DatabaseValue`, then reading a
/// `Row` back, was most of what storing an entry cost beyond SQLite itself. The strings stay
/// valid because each is bound inside its own `withUTF8` and the statement steps innermost.
enum DirectStatement {
    enum Value {
        case text(String)
        /// Text already held as UTF-8 bytes (valid UTF-8: SQLite does not check).
        case bytes([UInt8])
        case integer(Int64)
        case null

        init(_ text: String?) { self = text.map { .text($0) } ?? .null }
        init(_ integer: Int64?) { self = integer.map { .integer($0) } ?? .null }
        init(_ bytes: [UInt8]?) { self = bytes.map { .bytes($0) } ?? .null }
    }

    /// Executes `statement` (an INSERT, UPDATE or DELETE) with `values` bound in order.
    static func execute(_ statement: Statement, _ values: [Value], in db: Database) throws {
        try run(statement, values, in: db) { handle in (sqlite3_step(handle), ()) }
    }

    /// The first column of the first row `statement` gives, as text, with `values` bound:
    /// `nil` when there is no row, `.some(nil)` when the column is NULL.
    static func firstRow(_ statement: Statement, _ values: [Value], in db: Database) throws -> String?? {
        try run(statement, values, in: db) { handle -> (Int32, String??) in
            let code = sqlite3_step(handle)
            guard code == SQLITE_ROW else { return (code, nil) }
            let text = sqlite3_column_text(handle, 0).map { bytes in
                String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, 0))), as: UTF8.self)
            }
            return (code, .some(text))
        }
    }

    /// Calls `body` with the statement's handle at each row it gives, in order, for a reading
    /// of many rows where making a `Row` and decoding each value generically was most of the
    /// time (a million feeds' health: ``Catalog/healthSummary()``). `body` reads the current
    /// row's columns (e.g. `DatabaseValue(sqliteStatement:index:)`); the statement is reset after.
    static func forEachRow(_ statement: Statement, in db: Database, _ body: (OpaquePointer) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code, statement, db) }
            try body(handle)
        }
    }

    /// Binds `values`, runs `step` (its result code and what it read), and leaves the
    /// statement reset with no bindings, so no pointer into a `String` outlives this call.
    private static func run<T>(
        _ statement: Statement, _ values: [Value], in db: Database, _ step: (OpaquePointer) -> (Int32, T)
    ) throws -> T {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var result: T?
        let code = bindAndStep(handle, values[...], index: 1) { () -> Int32 in
            let (code, value) = step(handle)
            result = value
            return code
        }
        guard code == SQLITE_ROW || code == SQLITE_DONE, let result else { throw error(code, statement, db) }
        return result
    }

    /// Binds the values one by one, each inside the previous one's buffer access, then runs
    /// `step` with all of them bound.
    private static func bindAndStep(
        _ handle: OpaquePointer, _ values: ArraySlice<Value>, index: Int32, _ step: () -> Int32
    ) -> Int32 {
        guard let value = values.first else { return step() }
        let rest = values.dropFirst()
        switch value {
        case .null:
            sqlite3_bind_null(handle, index)
        case .integer(let integer):
            sqlite3_bind_int64(handle, index, integer)
        case .text(var text):
            return text.withUTF8 { bindText($0, handle, index) { bindAndStep(handle, rest, index: index + 1, step) } }
        case .bytes(let bytes):
            return bytes.withUnsafeBufferPointer { bindText($0, handle, index) { bindAndStep(handle, rest, index: index + 1, step) } }
        }
        return bindAndStep(handle, rest, index: index + 1, step)
    }

    /// Binds `bytes` as text without copying them, then runs `next` while they are bound.
    private static func bindText(
        _ bytes: UnsafeBufferPointer<UInt8>, _ handle: OpaquePointer, _ index: Int32, then next: () -> Int32
    ) -> Int32 {
        // An empty buffer may have no address, and SQLite reads a null pointer as NULL: empty
        // text is bound as a copy of "" instead.
        let code = bytes.isEmpty
            ? sqlite3_bind_text(handle, index, "", 0, transient)
            : sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count), nil)
        guard code == SQLITE_OK else { return code }
        return next()
    }

    /// `SQLITE_TRANSIENT`, which the C header defines as a cast that Swift does not import.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func error(_ code: Int32, _ statement: Statement, _ db: Database) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
    }
}
