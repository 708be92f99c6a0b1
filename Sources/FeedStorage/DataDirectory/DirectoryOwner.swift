import FeedBasics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Who owns a file or directory, and with which mode: what a message about ownership names
/// and what a file created on another user's behalf is given.
public struct FileOwnership: Sendable, Equatable {
    public var uid: uid_t
    public var gid: gid_t
    /// The permission bits (`0o7777` of `st_mode`).
    public var mode: mode_t

    public init(uid: uid_t, gid: gid_t, mode: mode_t) {
        self.uid = uid
        self.gid = gid
        self.mode = mode
    }

    /// The file's own owner and mode (not a link's target); `nil` when it cannot be reached.
    public static func of(_ path: String) -> FileOwnership? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileOwnership(uid: info.st_uid, gid: info.st_gid, mode: info.st_mode & 0o7777)
    }

    /// The owner and mode of the directory a path leads to, through links: a data directory
    /// named by a link (`/var/lib/feedmill/data` → `/srv/feedmill`) is the target's, whose
    /// owner the files written there must suit; the link's own owner (root, who made it)
    /// would let root write there unchecked and refuse the service its own directory.
    public static func ofDirectory(_ path: String) -> FileOwnership? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileOwnership(uid: info.st_uid, gid: info.st_gid, mode: info.st_mode & 0o7777)
    }

    /// `feedmill:feedmill`, or the numbers where the system has no name.
    public var ownerAndGroup: String { Accounts.userName(uid) + ":" + Accounts.groupName(gid) }

    /// `0644`.
    public var octalMode: String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A directory's mode bits without execute, for the files in it: 0750 gives 0640.
    public var fileMode: mode_t { mode & 0o666 }
}

/// User and group names, for messages: the name when the system has one, else the number.
public enum Accounts {
    /// The user's name, else the number: what `owned by root:root` needs.
    public static func userName(_ uid: uid_t) -> String { knownUserName(uid) ?? String(uid) }

    /// The name the password database gives `uid`, if any.
    public static func knownUserName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    /// The group's name, else the number.
    public static func groupName(_ gid: gid_t) -> String {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else { return String(gid) }
        return String(cString: name)
    }

    /// This run's user as a message names it: `feedmill (uid 999)`, `uid 4242`.
    public static func describeRunner(_ uid: uid_t = geteuid()) -> String {
        knownUserName(uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
    }
}

/// Files Feedmill creates in a directory that belongs to another user, when the process is
/// root (run by hand with `--allow-other-user`): each gets the directory's owner and group and
/// its mode bits without execute, so the service that owns the directory can still write
/// them. A process that is not root creates its own files as usual (it could not give them
/// away), and in a directory root owns nothing changes. SQLite does the same for the
/// journals and `-wal`/`-shm` files beside a database owned so.
public enum CreatedFileOwnership {
    /// Gives the file open on `descriptor`, just created in `directory`, the directory's owner.
    public static func adopt(descriptor: Int32, in directory: String) {
        guard let owner = foreignOwner(of: directory) else { return }
        _ = fchown(descriptor, owner.uid, owner.gid)
        _ = fchmod(descriptor, owner.fileMode)
    }

    /// The same by path, for files another library created (SQLite's); a path that is not
    /// there (a `-wal` already removed) is passed over. The file is opened without following
    /// a link and changed through that descriptor, and only a plain file with one name is
    /// changed: the directory's owner could otherwise swap in a link (or a hard link) to any
    /// file between a check and a `chmod`, and root would give that file away.
    public static func adopt(paths: [String], in directory: String) {
        guard let owner = foreignOwner(of: directory) else { return }
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1 else { continue }
            _ = fchown(descriptor, owner.uid, owner.gid)
            _ = fchmod(descriptor, owner.fileMode)
        }
    }

    /// The directory's ownership when this process is root and the directory is not root's.
    static func foreignOwner(of directory: String, euid: uid_t = geteuid()) -> FileOwnership? {
        guard euid == 0, let owner = FileOwnership.ofDirectory(directory), owner.uid != 0 else { return nil }
        return owner
    }
}
