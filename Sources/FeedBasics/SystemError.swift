#if canImport(Glibc)
import Glibc
#endif

/// An `errno` as a person and a search engine both want it: the system's words and the
/// constant's name, `Permission denied (EACCES)`. The words alone send people guessing; the
/// name is what the manual pages and every answer online use.
public enum SystemError {
    /// `strerror(code) (NAME)`, or the words alone for a code not named here.
    public static func describe(_ code: Int32) -> String {
        let words = String(cString: strerror(code))
        return names[code].map { "\(words) (\($0))" } ?? words
    }

    /// Whether `code` says this user may not do it (the fix is an owner or a mode, not space or a path).
    public static func isPermission(_ code: Int32) -> Bool { code == EACCES || code == EPERM }

    /// The codes file operations end with.
    static let names: [Int32: String] = [
        EACCES: "EACCES", EPERM: "EPERM", ENOENT: "ENOENT", EEXIST: "EEXIST", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
        EROFS: "EROFS", ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EIO: "EIO", ELOOP: "ELOOP", ENAMETOOLONG: "ENAMETOOLONG",
        EMFILE: "EMFILE", ENFILE: "ENFILE", EBUSY: "EBUSY", EXDEV: "EXDEV", ENOTEMPTY: "ENOTEMPTY", EINVAL: "EINVAL",
    ]
}
