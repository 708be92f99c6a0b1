import GRDB

/// A stored value that is not of the type its column holds: text in `pubdate_unix_time`, a
/// BLOB title, `1e300` where an integer belongs. Feedmill never writes one; a person with
/// `sqlite3`, another tool or a damaged disk can. Reading one must never stop a command
/// (GRDB's row subscripts trap on a value they cannot convert), so every read of a stored
/// value goes through ``StoredValue``, and what was wrong is said in one line.
public struct WrongValue: Sendable, Equatable, CustomStringConvertible {
    public var table: String
    public var column: String
    /// Which row: `feed 3`, `item 'https://example.com/1'`.
    public var row: String
    /// What the column holds: `text 'x'`, `real 1e+300`, `a 12-byte BLOB`.
    public var found: String
    /// What it should hold: `an integer`, `text`.
    public var expected: String

    public var description: String { "\(table).\(column) of \(row) holds \(found), not \(expected)" }

    public init(table: String, column: String, row: String, found: String, expected: String) {
        (self.table, self.column, self.row, self.found, self.expected) = (table, column, row, found, expected)
    }

    /// The value at `index` of `row`, found wrong; the row named by its key (the first column)
    /// after `keyWord`: `item 'a1'`, `feed 3`.
    init(_ row: Row, _ index: Int, table: String, column: String, keyWord: String, expected: String) {
        let value = StoredValue.raw(row, index)
        let key = StoredValue.raw(row, 0)
        let name: String
        switch key.storage {
        case .string(let text): name = "'\(text)'"
        case .int64(let integer): name = "\(integer)"
        default: name = StoredValue.describe(key)
        }
        self.init(table: table, column: column, row: keyWord + " " + name, found: StoredValue.describe(value), expected: expected)
    }
}

/// The SQLite storage classes a column may hold, and reading a value as one without trapping.
public enum StoredValue {
    /// What a column holds by its contract (its declared type, and whether NULL is allowed).
    public enum Kind: Sendable, Equatable {
        case integer, text, optionalInteger, optionalText

        /// The `typeof()` names a value of this kind may have.
        var storageClasses: [String] {
            switch self {
            case .integer: return ["integer"]
            case .text: return ["text"]
            case .optionalInteger: return ["integer", "null"]
            case .optionalText: return ["text", "null"]
            }
        }

        var expected: String {
            switch self {
            case .integer: return "an integer"
            case .text: return "text"
            case .optionalInteger: return "an integer or NULL"
            case .optionalText: return "text or NULL"
            }
        }

        /// SQL that is true when `column` holds something else.
        func mismatch(_ column: String) -> String {
            "typeof(\(column)) NOT IN (\(storageClasses.map { "'\($0)'" }.joined(separator: ", ")))"
        }

        func accepts(_ value: DatabaseValue) -> Bool {
            switch value.storage {
            case .null: return self == .optionalInteger || self == .optionalText
            case .int64: return self == .integer || self == .optionalInteger
            case .string: return self == .text || self == .optionalText
            case .double, .blob: return false
            }
        }
    }

    /// The value at `index` as it is stored; never traps.
    public static func raw(_ row: Row, _ index: Int) -> DatabaseValue {
        row[index]
    }

    /// The value at `index` converted to `Value` as GRDB converts it (a whole real reads as an
    /// integer, a BLOB of UTF-8 as text); `nil` for NULL; `.failure` when it cannot be.
    public static func read<Value: DatabaseValueConvertible>(
        _ row: Row, _ index: Int, as type: Value.Type = Value.self
    ) -> Result<Value?, Unreadable> {
        let value = raw(row, index)
        if value.isNull { return .success(nil) }
        guard let converted = Value.fromDatabaseValue(value) else { return .failure(Unreadable(value)) }
        return .success(converted)
    }

    /// Text however it is stored: a BLOB's bytes as UTF-8 (invalid sequences replaced), a
    /// number as its digits, NULL as empty.
    public static func lossyText(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return ""
        case .int64(let integer): return String(integer)
        case .double(let real): return String(real)
        case .string(let text): return text
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// The value at `index` as `Value`, or `nil` when it cannot be one, then said in `problems`
    /// (`fetch_state.etag holds a 2-byte BLOB`): how readers that carry on read a row.
    public static func read<Value: DatabaseValueConvertible>(
        _ row: Row, _ index: Int, _ column: String, noting problems: inout [String]
    ) -> Value? {
        switch read(row, index, as: Value.self) {
        case .success(let value): return value
        case .failure(let problem):
            problems.append("\(column) holds \(problem.found)")
            return nil
        }
    }

    /// A value that did not convert, described for a person.
    public struct Unreadable: Error, Sendable, Equatable {
        public var found: String

        init(_ value: DatabaseValue) {
            found = StoredValue.describe(value)
        }
    }

    /// `text 'abc'`, `integer 5`, `real 1e+300`, `a 12-byte BLOB`, `NULL`; text clipped to 40
    /// characters, so a message stays one line whatever the column held.
    public static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let integer): return "integer \(integer)"
        case .double(let real): return "real \(real)"
        case .string(let text):
            let line = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : String($0) }.joined()
            return "text '\(line.count > 40 ? line.prefix(39) + "…" : line)'"
        case .blob(let data): return "a \(data.count)-byte BLOB"
        }
    }
}
