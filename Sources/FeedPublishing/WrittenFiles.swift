import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The files one publication has written and no manifest names yet: its own, and so the
/// only files it may take back when it fails before the manifest is written. A publication
/// that stopped on a full disk or on exhausted inodes left ~40 temporaries and its new
/// versions behind until a later one succeeded; on a small file system those leftovers alone
/// kept it full after space had been freed.
///
/// `@unchecked Sendable` is not needed: one publication, one thread.
final class WrittenFiles {
    private let directory: String
    /// Names the previous manifest gives (or recovery left alone): never removed from here.
    private let kept: Set<String>
    private var names: [String] = []

    init(directory: String, keeping kept: Set<String>) {
        self.directory = directory
        self.kept = kept
    }

    /// Records a name once its file is written whole (a write cut short removes its own
    /// temporary, and never leaves the final name): only a file this run wrote is ever taken back.
    func add(_ name: String) {
        if !kept.contains(name) { names.append(name) }
    }

    /// Where the names recorded so far end (for ``removeAll(since:)``).
    func mark() -> Int { names.count }

    /// Removes the files recorded since `mark`: one feed's snapshot and deltas, when the
    /// feed failed half-way.
    func removeAll(since mark: Int = 0) {
        for name in names[mark...] {
            let path = directory + "/" + name
            var info = stat()
            // Regular files only, as the publisher removes nothing else.
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { unlink(path) }
        }
        names.removeSubrange(mark...)
    }

    /// The manifest names them now: nothing is taken back any more.
    func keepAll() {
        names.removeAll()
    }
}
