import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder an app reads its databases from, held by one sync at a time (an `flock` on the
/// folder itself, so there is no lock file to leave behind). Every file is replaced the same
/// way: written to a temporary in the same folder, synced, renamed over the old one, and the
/// folder synced, so an app opening a database gets the old file or the new one, whole.
///
/// Not `Sendable`: one sync owns it from start to finish.
final class LocalFolder {
    let url: URL
    private var lockDescriptor: Int32 = -1

    /// Temporaries are named with this prefix, and only files with it are removed as leftovers.
    static let temporaryPrefix = ".feedmill-client.tmp."

    /// Creates the folder if needed and takes its lock.
    init(_ url: URL) throws(ClientError) {
        self.url = url.standardizedFileURL
        try Self.makeDirectories(self.url.path)
        let descriptor = open(self.url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .folder(path: self.url.path, reason: "cannot be opened: \(Self.errorText())") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = Self.errorText()
            close(descriptor)
            if busy { throw .busy(path: self.url.path) }
            throw .folder(path: self.url.path, reason: "cannot be locked: \(reason)")
        }
        lockDescriptor = descriptor
    }

    deinit {
        unlock()
    }

    /// Lets the next sync in: called when a sync ends, so the lock does not wait for the last
    /// reference to the folder to go (a completion handler on another thread may hold the
    /// session a moment after `run()` returned, and the caller's next sync was then "busy").
    func unlock() {
        guard lockDescriptor >= 0 else { return }
        close(lockDescriptor)
        lockDescriptor = -1
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Whether anything is at `name`, a symbolic link too, even one pointing nowhere
    /// (`fileExists` follows links, and a rename over a dangling link would replace someone
    /// else's link).
    func exists(_ name: String) -> Bool {
        var info = stat()
        return lstat(path(name), &info) == 0
    }

    /// Size and modification time (nanoseconds since 1970), to notice a file changed by someone else.
    func stamp(_ name: String) -> (size: Int, modified: Int64)? {
        var info = stat()
        guard stat(path(name), &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        #endif
        return (Int(info.st_size), modified)
    }

    /// A fresh temporary name for `name`, in this folder (a rename is only atomic within one
    /// file system).
    func temporaryName(for name: String) -> String {
        Self.temporaryPrefix + name + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }

    /// Writes `data` to a new temporary and syncs it; returns its name. With the client's own
    /// calls, not Foundation's (whose atomic write leaves `.dat.nosync…` files behind when it
    /// fails, and says no more than "cannot be written"): a temporary that could not be
    /// written whole is removed, and the error names its cause.
    func writeTemporary(_ data: Data, for name: String) throws(ClientError) -> String {
        let temporary = temporaryName(for: name)
        let path = self.path(temporary)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .folder(path: path, reason: "cannot be created: \(Self.errorText())") }
        let failure: String? = data.withUnsafeBytes { buffer in
            Self.writeAll(descriptor, buffer) ?? (fsync(descriptor) == 0 ? nil : "cannot be synced: \(Self.errorText())")
        }
        let closed = close(descriptor) == 0 ? nil : "cannot be closed: \(Self.errorText())"
        if let reason = failure ?? closed {
            unlink(path)
            throw .folder(path: path, reason: reason)
        }
        return temporary
    }

    /// Copies the file `name` to a new temporary (to apply a delta to the copy), 64 KiB at a
    /// time; a copy cut short is removed.
    func copyToTemporary(_ name: String) throws(ClientError) -> String {
        let source = open(path(name), O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw .folder(path: path(name), reason: "cannot be read to copy it: \(Self.errorText())") }
        defer { close(source) }
        let temporary = temporaryName(for: name)
        let target = path(temporary)
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .folder(path: target, reason: "cannot be created: \(Self.errorText())") }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var failure: String?
        copying: while true {
            let count = read(source, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count < 0 { failure = "cannot be read to copy it: \(Self.errorText())"; break }
            if count == 0 { break }
            failure = buffer.withUnsafeBytes { Self.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if failure != nil { break copying }
        }
        if failure == nil, close(descriptor) != 0 { failure = "cannot be closed: \(Self.errorText())" } else if failure != nil { close(descriptor) }
        if let failure {
            unlink(target)
            throw .folder(path: target, reason: failure)
        }
        return temporary
    }

    /// Writes all of `bytes` (a short write goes on, an interrupted one is tried again); why not, or `nil`.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            if written < 0 { return "cannot be written: \(errorText())" }
            offset += written
        }
        return nil
    }

    /// `mkdir -p`, each missing folder made with the caller's umask; the error names the
    /// folder that could not be made and why.
    private static func makeDirectories(_ path: String) throws(ClientError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .folder(path: path, reason: "is not a folder") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw .folder(path: path, reason: "cannot be created: \(errorText())") }
    }

    /// Renames the synced temporary over `name`, then syncs the folder so the rename survives
    /// a power cut.
    func install(_ temporary: String, as name: String) throws(ClientError) {
        try sync(temporary)
        guard rename(path(temporary), path(name)) == 0 else {
            throw .folder(path: path(name), reason: "cannot be replaced: \(Self.errorText())")
        }
        try syncFolder()
    }

    /// Writes `data` under `name` atomically.
    func replace(_ name: String, with data: Data) throws(ClientError) {
        let temporary = try writeTemporary(data, for: name)
        do throws(ClientError) {
            try install(temporary, as: name)
        } catch {
            discard(temporary)
            throw error
        }
    }

    /// Removes a temporary of this sync and the journal SQLite may have left beside it.
    func discard(_ temporary: String) {
        unlink(path(temporary))
        unlink(path(temporary + "-journal"))
    }

    func remove(_ name: String) throws(ClientError) {
        guard unlink(path(name)) == 0 || errno == ENOENT else {
            throw .folder(path: path(name), reason: "cannot be removed: \(Self.errorText())")
        }
        try syncFolder()
    }

    /// Removes the temporaries an earlier sync left when it was killed (only names with this
    /// client's prefix: nothing else in the folder is touched). Returns how many.
    func removeLeftoverTemporaries() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            if unlink(path(name)) == 0 { removed += 1 }
        }
        return removed
    }

    private func sync(_ name: String) throws(ClientError) {
        try Self.syncToDisk(path(name))
    }

    private func syncFolder() throws(ClientError) {
        try Self.syncToDisk(url.path)
    }

    private static func syncToDisk(_ path: String) throws(ClientError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .folder(path: path, reason: "cannot be opened to sync: \(errorText())") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .folder(path: path, reason: "cannot be synced: \(errorText())") }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
