import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// fsync and rename: the two steps that make "write elsewhere, then swap in" survive a crash.
public enum DurableFiles {
    public static func sync(_ path: String) throws(StorageError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw StorageError(path: path, message: "cannot open to sync: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw StorageError(path: path, message: "fsync failed: \(String(cString: strerror(errno)))") }
    }

    /// Atomically replaces `destination` with `source`, then syncs the directory so the new
    /// name survives a power cut.
    public static func rename(_ source: String, to destination: String) throws(StorageError) {
        guard Glibc.rename(source, destination) == 0 else {
            throw StorageError(path: destination, message: "rename failed: \(String(cString: strerror(errno)))")
        }
        try sync((destination as NSString).deletingLastPathComponent)
    }

    /// Writes bytes under a temporary name, syncs, and renames over `path`. The temporary is
    /// created afresh (`O_EXCL | O_NOFOLLOW`, after removing whatever had that name), so a
    /// link planted there is replaced, never written through.
    public static func write(_ bytes: [UInt8], to path: String) throws(StorageError) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StorageError(path: temporary, message: "cannot create: \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw StorageError(path: temporary, message: "cannot write: \(reason)")
            }
            written += count
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            throw StorageError(path: temporary, message: "fsync failed: \(String(cString: strerror(errno)))")
        }
        try rename(temporary, to: path)
    }
}
