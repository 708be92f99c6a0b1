#if canImport(Glibc)
import Glibc
#endif

/// Wakes the watcher as soon as something is renamed or written into the publication
/// directory (inotify), so a root committed by any local `rss-publish` is looked at at once
/// rather than at the next tick; the watcher still looks every interval, which is what sees a
/// directory on a network file system (no inotify there) and what runs where inotify cannot
/// be had (its limits reached: then there is no notifier).
final class DirectoryNotifier: Sendable {
    private let descriptor: Int32

    init?(directory: String) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, directory, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE)) >= 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Blocks until something changed in the directory or `milliseconds` passed; the events
    /// read are dropped (the watcher looks at the root either way).
    func wait(milliseconds: Int32) {
        var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, milliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
