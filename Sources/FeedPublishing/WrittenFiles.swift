/// The files one publication has written and no manifest names yet: its own, and so the
/// only files it may take back when it fails before the manifest is written. A publication
/// that stopped on a full disk or on exhausted inodes left ~40 temporaries and its new
/// versions behind until a later one succeeded; on a small file system those leftovers alone
/// kept it full after space had been freed.
///
/// Not `Sendable`, and needs no lock: one publication, one thread.
final class WrittenFiles {
    private let target: any PublicationTarget
    /// Names the previous manifest gives (or recovery left alone): never removed from here.
    private let kept: Set<String>
    private var names: [String] = []

    init(in target: any PublicationTarget, keeping kept: Set<String>) {
        self.target = target
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
    /// feed failed half-way. Plain files only, as the publisher removes nothing else.
    func removeAll(since mark: Int = 0) {
        for name in names[mark...] { _ = target.delete(name) }
        names.removeSubrange(mark...)
    }

    /// The manifest names them now: nothing is taken back any more.
    func keepAll() {
        names.removeAll()
    }
}
