import FeedBasics
import FeedModel
import GRDB

/// Why a database could not be opened, migrated or written. One line a person understands,
/// with the file it concerns.
public struct StorageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What the pipeline does about it: a damaged or foreign feed database is set aside and
    /// its feed refetched; a newer one is left alone and reported; anything else is reported
    /// and retried as it is.
    public enum Kind: String, Sendable, Equatable {
        /// Not a usable SQLite file: garbage, cut short, corrupt, a link, not a regular file.
        case damaged
        /// A healthy database that belongs to another feed or catalog.
        case foreign
        /// Written by a newer Feedmill (``SchemaGeneration``): neither read nor written.
        case newer
        /// Holds values of the wrong type (``ItemValues``): not published until repaired.
        case wrongValues
        case other
    }

    /// Set aside and refetched by the update (renamed, never deleted).
    public var setsAside: Bool { kind == .damaged || kind == .foreign }

    /// The feed's failure kind when it is not set aside: a newer database is said as such.
    public var failureKind: FailureKind { kind == .newer ? .newerDatabase : .storage }

    public var path: String
    public var message: String
    public var kind: Kind

    public init(path: String, message: String, kind: Kind = .other) {
        self.path = path
        self.message = message
        self.kind = kind
    }

    public var description: String { "\(path): \(message)" }

    public init(_ error: FileError) {
        self.init(path: error.path, message: error.message)
    }

    /// Runs a file operation, its failure as a storage error.
    public static func files<T>(_ body: () throws(FileError) -> T) throws(StorageError) -> T {
        try rethrowing(try body(), as: StorageError.init)
    }

    static func wrap<T>(_ path: String, _ action: String, _ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw error
        } catch let error as FileError {
            throw StorageError(error)
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            throw StorageError(path: path, message: "\(action) failed: the file is damaged (\(error.message ?? "\(error)"))", kind: .damaged)
        } catch let error as DatabaseError
            where [.SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_READONLY, .SQLITE_PERM].contains(error.resultCode)
        {
            // SQLite's words name the symptom; the file system, asked now, usually names the cause.
            let cause = FileSystemDiagnosis.problem(writing: path).map { ": \($0)" } ?? ""
            throw StorageError(path: path, message: "\(action) failed\(cause) (\(error.message ?? "\(error)"))")
        } catch {
            throw StorageError(path: path, message: "\(action) failed: \(error)")
        }
    }
}
