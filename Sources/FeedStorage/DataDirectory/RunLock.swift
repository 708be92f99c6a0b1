import FeedBasics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One run per directory at a time: an exclusive `flock`, held for the life of this object.
/// A second run does not wait: it exits at once with a message naming the holder (cron simply
/// tries again next time). The kernel drops the lock when the process dies, `kill -9`
/// included, so a crash never leaves it stuck.
///
/// Immutable once made (the descriptor is only closed by `deinit`), hence `Sendable`.
public final class RunLock: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Why a directory could not be locked (``init(lockingDirectory:)``).
    public enum Refusal: Error, Equatable, Sendable {
        /// The directory cannot be opened; the system's reason.
        case cannotOpen(reason: String)
        /// Another process holds the lock.
        case held
    }

    /// Locks a data directory: `<data>/.feedmill.lock`, which holds the holder's pid so that
    /// the second run can name it.
    public init(directory: String) throws(DataDirectoryError) {
        path = DataDirectory(directory).lockPath
        // Never through a link, and only into a plain file: whoever owns the directory could
        // otherwise point the lock at any file, and root (`--allow-other-user`) would create,
        // truncate and give away that file instead.
        var created = true
        var descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EEXIST {
            created = false
            descriptor = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        }
        var info = stat()
        if descriptor >= 0, fstat(descriptor, &info) != 0 || info.st_mode & S_IFMT != S_IFREG || info.st_nlink != 1 {
            close(descriptor)
            throw .unusable(path: directory, reason: Self.notAPlainFile(path))
        }
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw .unusable(path: directory, reason: Self.notAPlainFile(path)) }
            let reason = "cannot open \(path): \(SystemError.describe(code))"
            // A lock left by a run as another user: its owner, its mode and the chown that fixes it.
            if SystemError.isPermission(code) { throw .denied(path: directory, reason: StorageError.notWritable(path)?.message ?? reason) }
            throw .cannotCreate(path: directory, reason: FileSystemDiagnosis.problem(writing: path).map { "\($0); \(reason)" } ?? reason)
        }
        if created { CreatedFileOwnership.adopt(descriptor: descriptor, in: directory) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            close(descriptor)
            let holder = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
            throw .busy(lockPath: path, holder: holder)
        }
        self.descriptor = descriptor
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    /// The lock's path holds a link, a second name of another file, or something that is not a file.
    static func notAPlainFile(_ path: String) -> String {
        "\(path) is not a plain file of its own (a symbolic link, a hard link or a special file): Feedmill never locks or writes "
            + "through one; remove it when no Feedmill run is using the directory"
    }

    /// Locks `directory` itself (a directory can be flocked on Linux) and writes nothing:
    /// for the publish directory, where even a lock file would be a change to serve.
    public init(lockingDirectory directory: String) throws(Refusal) {
        path = directory
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .held
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
