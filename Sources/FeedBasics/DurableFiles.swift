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
public enum DurableFiles {
    public static func sync(_ path: String) throws(FileError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileError(path: path, message: "cannot open to sync: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileError(path: path, message: "fsync failed: \(String(cString: strerror(errno)))") }
    }

    /// Atomically replaces `destination` with `source`, then syncs the directory so the new
    /// name survives a power cut.
    public static func rename(_ source: String, to destination: String) throws(FileError) {
        guard Glibc.rename(source, destination) == 0 else {
            throw FileError(path: destination, message: "rename failed: \(String(cString: strerror(errno)))")
        }
        try sync((destination as NSString).deletingLastPathComponent)
    }

    /// Gives the written file `source` the name `destination` only if no file has that name:
    /// syncs it, links it (which fails rather than replace), drops the temporary name and
    /// syncs the directory. On a file system without hard links, renames it after checking
    /// that the name is free.
    public static func moveIntoPlace(_ source: String, to destination: String) throws(FileError) {
        try sync(source)
        if link(source, destination) == 0 {
            unlink(source)
        } else if errno == EEXIST {
            throw FileError(path: destination, message: "already exists; \(source) was not put in its place")
        } else {
            guard access(destination, F_OK) != 0, Glibc.rename(source, destination) == 0 else {
                throw FileError(path: destination, message: "cannot put \(source) in its place: \(String(cString: strerror(errno)))")
            }
        }
        try sync((destination as NSString).deletingLastPathComponent)
    }

    /// Writes bytes under a temporary name, syncs, and renames over `path`. The temporary is
    /// created afresh (`O_EXCL | O_NOFOLLOW`, after removing whatever had that name), so a
    /// link planted there is replaced, never written through. Writers in one process that may
    /// write the same path at once pass a `temporary` name of their own.
    public static func write(_ bytes: [UInt8], to path: String, temporary: String? = nil) throws(FileError) {
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
            guard fsync(descriptor) == 0, close(descriptor) == 0 else { throw failure(temporary, "fsync failed") }
            try rename(temporary, to: path)
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
