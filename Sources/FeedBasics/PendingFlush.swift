#if canImport(Glibc)
import Glibc
#endif

/// A file system on which files are being written now to be flushed later, all together, with
/// one `syncfs(2)` (``DurableFiles/Flushing/later``). Opened before the first of those files
/// is written, and kept: `syncfs` reports a write-back error only when it struck after the
/// descriptor it is given was opened, so a descriptor opened at the flush would miss an error
/// that struck one of the files in the meantime, and the flush would claim a durability the
/// disk did not give.
public final class PendingFlush: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Starts watching the file system holding `path` (a directory or a file there).
    public init(holding path: String) throws(FileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, message: "cannot open to sync: \(String(cString: strerror(errno)))") }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Flushes everything written on the file system (its data, new names and removals,
    /// whoever wrote them): one journal commit and one disk cache flush for any number of
    /// files. Fails on a write-back error since this was opened or last flushed (Linux 5.8
    /// and later report them). Where the C library has no `syncfs`, `sync(2)`.
    public func flush() throws(FileError) {
        FlushCount.record()
        guard let syncfs = FileSystemSync.syncfs else {
            sync()
            return
        }
        guard syncfs(descriptor) == 0 else {
            throw FileError(path: path, message: "syncfs failed: \(String(cString: strerror(errno)))")
        }
    }
}
