import FeedBasics
import FeedModel
import GRDB

#if canImport(Glibc)
import Glibc
#endif

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
        /// There, but this user may not write it (``notWritable(_:)``): the message is the
        /// whole line, with the owner, the mode, this run's user and the `chown` that fixes it.
        case notWritable
        case other
    }

    /// Set aside and refetched by the update (renamed, never deleted).
    public var setsAside: Bool { kind == .damaged || kind == .foreign }

    /// The feed's failure kind when it is not set aside: a newer database is said as such.
    public var failureKind: FailureKind {
        switch kind {
        case .newer: return .newerDatabase
        case .notWritable: return .notWritable
        default: return .storage
        }
    }

    public var path: String
    public var message: String
    public var kind: Kind

    public init(path: String, message: String, kind: Kind = .other) {
        self.path = path
        self.message = message
        self.kind = kind
    }

    public var description: String { kind == .notWritable ? message : "\(path): \(message)" }

    public init(_ error: FileError) {
        self.init(path: error.path, message: error.message)
    }

    /// Runs a file operation, its failure as a storage error.
    public static func files<T>(_ body: () throws(FileError) -> T) throws(StorageError) -> T {
        try rethrowing(try body(), as: StorageError.init)
    }

    static func wrap<T>(_ path: String, _ action: String, _ body: () throws -> T) throws(StorageError) -> T {
        let mark = SQLiteLibrary.osErrorMark
        do {
            return try body()
        } catch let error as StorageError {
            throw error
        } catch let error as FileError {
            throw StorageError(error)
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            throw StorageError(path: path, message: "\(action) failed: the file is damaged (\(error.message ?? "\(error)"))", kind: .damaged)
        } catch let error as DatabaseError
            where [.SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN].contains(error.resultCode) && notWritable(path) != nil
        {
            // SQLite's "attempt to write a readonly database", with its SQL, says nothing a person can act on.
            throw notWritable(path) ?? StorageError(path: path, message: "\(action) failed")
        } catch let error as DatabaseError
            where [.SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_READONLY, .SQLITE_PERM].contains(error.resultCode)
        {
            // SQLite's words name the symptom; the call that failed (SQLite's own log of it) and
            // the file system, asked now, name the cause.
            // "attempt to write a readonly database" of a file this process may write: its
            // read-write open failed earlier (the errno layer kept why) and SQLite fell back.
            let readOnly = error.resultCode == .SQLITE_READONLY
                ? SQLiteLibrary.failedOpen(path: path).map { "\($0), so SQLite opened it read-only" } : nil
            let causes = [SQLiteLibrary.osError(since: mark, path: path) ?? readOnly ?? Self.failedCall(error), FileSystemDiagnosis.problem(writing: path)]
                .compactMap { $0 }
            let cause = causes.isEmpty ? "" : ": " + causes.joined(separator: "; ")
            throw StorageError(path: path, message: "\(action) failed\(cause) (\(error.message ?? "\(error)"))")
        } catch {
            throw StorageError(path: path, message: "\(action) failed: \(error)")
        }
    }
}

extension StorageError {
    /// Which call failed, from SQLite's extended result code, when SQLite did not log the
    /// call itself (it logs opens and syncs, not reads and writes).
    static func failedCall(_ error: DatabaseError) -> String? {
        switch error.extendedResultCode {
        case .SQLITE_IOERR_WRITE: "a write to the database or its journal failed"
        case .SQLITE_IOERR_READ, .SQLITE_IOERR_SHORT_READ: "a read of the database or its journal failed"
        case .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_DIR_FSYNC: "a sync to the disk failed"
        case .SQLITE_IOERR_TRUNCATE: "truncating the database or its journal failed"
        case .SQLITE_IOERR_DELETE: "removing the journal failed"
        case .SQLITE_IOERR_SHMOPEN, .SQLITE_IOERR_SHMSIZE, .SQLITE_IOERR_SHMMAP: "the -shm file could not be opened or grown"
        default: nil
        }
    }

    /// The error for a file that is there and that this process may not write, or `nil` when
    /// it may (or is not there). One line, no SQL: `cannot write /path/feed_5.sqlite: owned by
    /// root:root, mode 0644, and this run is feedmill (uid 999); fix it with: chown feedmill: /path/feed_5.sqlite`.
    public static func notWritable(_ path: String) -> StorageError? {
        guard access(path, F_OK) == 0, access(path, W_OK) != 0, SystemError.isPermission(errno),
            let owner = FileOwnership.of(path)
        else { return nil }
        let runner = geteuid()
        let fix = Accounts.knownUserName(runner).map { "chown \($0): \(path)" } ?? "chown \(runner) \(path)"
        return StorageError(
            path: path,
            message: "cannot write \(path): owned by \(owner.ownerAndGroup), mode \(owner.octalMode), and this run is "
                + "\(Accounts.describeRunner(runner)); fix it with: \(fix)",
            kind: .notWritable)
    }
}
