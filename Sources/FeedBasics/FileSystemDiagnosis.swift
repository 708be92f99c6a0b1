import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be created or written, when the file system itself says: SQLite
/// reports a read-only directory, a file system out of inodes and one out of space alike, as
/// "unable to open database file" or "disk I/O error", which sends a person looking in the
/// wrong place. Asked only after a failure, so it costs nothing on the way that works.
public enum FileSystemDiagnosis {
    /// One clause naming what is wrong with the place `path` is (to be) written in, or `nil`
    /// when nothing there explains a failure.
    public static func problem(writing path: String) -> String? {
        let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var info = stat()
        if stat(directory, &info) != 0 { return "its directory \(directory) does not exist or cannot be reached: \(SystemError.describe(errno))" }
        if info.st_mode & S_IFMT != S_IFDIR { return "\(directory) is not a directory" }
        var volume = statvfs()
        if statvfs(directory, &volume) == 0 {
            if volume.f_flag & UInt(ST_RDONLY) != 0 { return "the file system holding \(directory) is mounted read-only" }
            if volume.f_files > 0 && volume.f_favail == 0 { return "the file system holding \(directory) has no free inodes left (df -i)" }
            if volume.f_bavail == 0 { return "the file system holding \(directory) is full (df -h)" }
        }
        if access(directory, W_OK) != 0 { return "\(directory) is not writable by this user: \(SystemError.describe(errno))" }
        if access(path, F_OK) == 0, access(path, W_OK) != 0 { return "\(path) is not writable by this user: \(SystemError.describe(errno))" }
        return nil
    }
}

extension FileSystemDiagnosis {
    /// Why `path` cannot be used as a directory, if it cannot: it is something else, or it
    /// cannot be created (`create`) or reached.
    public static func directoryProblem(_ path: String, create: Bool) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : "it is a file, not a directory"
        }
        guard errno == ENOENT else { return SystemError.describe(errno) }
        guard create else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return nil
        } catch {
            return problem(writing: path) ?? "it cannot be created (\(error.localizedDescription))"
        }
    }
}

extension FileSystemDiagnosis {
    /// Why a directory could not be created: the system's error and the path it was refused
    /// at (the first missing parent, perhaps), as errno says it.
    public struct CreationFailure: Error, Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var code: Int32

        public var description: String { "cannot create \(path): \(SystemError.describe(code))" }
        public var isPermission: Bool { SystemError.isPermission(code) }
    }

    /// `mkdir -p`: creates `path` and its missing parents (mode 0777 less the umask).
    public static func makeDirectories(_ path: String) throws(CreationFailure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o777) != 0, errno != EEXIST { throw CreationFailure(path: prefix, code: errno) }
        }
    }
}
