import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file operation that failed, with the path and the system's reason.
public struct FileError: Error, Equatable, CustomStringConvertible, Sendable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// fsync and rename: the two steps that make "write elsewhere, then swap in" survive a crash.
/// Every file Feedmill replaces (snapshots, manifests, metrics, recordings) goes through here.
///
/// A writer of many files that nobody reads before one last file names them (a publication's
/// versioned snapshots and deltas, named by its manifest) need not pay one disk flush per
/// file: it writes them with ``Flushing/later`` and makes them durable together with one
/// ``syncFileSystem(holding:)`` before it writes that last file the usual way.
public enum DurableFiles {
    /// When a written file is made to survive a power cut.
    public enum Flushing: Sendable {
        /// Before the call returns: the file and its directory entry are flushed.
        case now
        /// Not by this call: the caller flushes the file system (``syncFileSystem(holding:)``)
        /// before anything durable names the file. Until then a power cut may lose it, or
        /// leave it empty; a kill does not (the kernel keeps what was written).
        case later
    }

    /// The directory holding `path`: `.` for a bare name (`--metrics-file feedmill.prom`),
    /// whose directory entry must be flushed too.
    static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    public static func sync(_ path: String) throws(FileError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileError(path: path, message: "cannot open to sync: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        FlushCount.record()
        guard fsync(descriptor) == 0 else { throw FileError(path: path, message: "fsync failed: \(String(cString: strerror(errno)))") }
    }

    /// Atomically replaces `destination` with `source`, then (with ``Flushing/now``) syncs the
    /// directory so the new name survives a power cut.
    public static func rename(_ source: String, to destination: String, flushing: Flushing = .now) throws(FileError) {
        guard Glibc.rename(source, destination) == 0 else {
            throw FileError(path: destination, message: "rename failed: \(String(cString: strerror(errno)))")
        }
        if flushing == .now { try sync(directory(of: destination)) }
    }

    /// Flushes everything written on the file system that holds `path` with one `syncfs(2)`
    /// (``PendingFlush/flush()``), opened now: a writer that must hear of a write-back error
    /// in files written before this call holds a ``PendingFlush`` opened before them instead.
    public static func syncFileSystem(holding path: String) throws(FileError) {
        try PendingFlush(holding: path).flush()
    }

    /// Gives the written file `source` the name `destination` only if no file has that name:
    /// syncs it, links it (which fails rather than replace), drops the temporary name and
    /// syncs the directory. When the temporary name cannot be dropped, the link is taken back
    /// and the error thrown: the file stays under `source` alone, for the caller to discard.
    /// On a file system without hard links, renames it after checking that the name is free.
    public static func moveIntoPlace(_ source: String, to destination: String) throws(FileError) {
        try sync(source)
        if link(source, destination) == 0 {
            guard unlink(source) == 0 else {
                // Both names are one file: the name just linked is taken back (this call made
                // it, and the file stays under `source`), so the caller's failure path starts
                // from the temporary alone; ignored, the second name stayed for good (issue 52).
                let error = failure(source, "cannot remove this temporary name after linking it as \(destination)")
                unlink(destination)
                throw error
            }
        } else if errno == EEXIST {
            throw FileError(path: destination, message: "already exists; \(source) was not put in its place")
        } else {
            guard access(destination, F_OK) != 0, Glibc.rename(source, destination) == 0 else {
                throw FileError(path: destination, message: "cannot put \(source) in its place: \(String(cString: strerror(errno)))")
            }
        }
        try sync(directory(of: destination))
    }

    /// Writes bytes under a temporary name, syncs, and renames over `path`. The temporary is
    /// created afresh (`O_EXCL | O_NOFOLLOW`, after removing whatever had that name), so a
    /// link planted there is replaced, never written through. Writers in one process that may
    /// write the same path at once pass a `temporary` name of their own. With
    /// ``Flushing/later`` neither the file nor its directory is flushed here.
    public static func write(_ bytes: [UInt8], to path: String, temporary: String? = nil, flushing: Flushing = .now) throws(FileError) {
        let temporary = temporary ?? path + ".tmp-\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(temporary, "cannot create") }
        do throws(FileError) {
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else {
                    let error = failure(temporary, "cannot write")
                    close(descriptor)
                    throw error
                }
                written += count
            }
            if flushing == .now {
                FlushCount.record()
                guard fsync(descriptor) == 0 else {
                    let error = failure(temporary, "fsync failed")
                    close(descriptor)
                    throw error
                }
            }
            guard close(descriptor) == 0 else { throw failure(temporary, "close failed") }
            try rename(temporary, to: path, flushing: flushing)
        } catch {
            // The temporary is this call's own: a full disk must not keep it, and keep itself full.
            unlink(temporary)
            throw error
        }
    }

    /// The system's reason for the failure just seen (`errno`), and what the file system says
    /// of the place when that names the cause better (``FileSystemDiagnosis``).
    static func failure(_ path: String, _ what: String) -> FileError {
        let reason = String(cString: strerror(errno))
        let cause = FileSystemDiagnosis.problem(writing: path).map { "; \($0)" } ?? ""
        return FileError(path: path, message: "\(what): \(reason)\(cause)")
    }
}
