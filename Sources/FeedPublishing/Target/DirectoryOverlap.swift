import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Publishing removes its own old files from the output directory, and the data directory
/// holds the working databases: the two must never be the same place, one inside the other,
/// or either of those through a symbolic link.
enum DirectoryOverlap {
    static func refuse(output: String, data: String) throws(PublishError) {
        let out = canonical(output)
        let dataDirectory = canonical(data)
        guard out == dataDirectory || out.hasPrefix(dataDirectory + "/") || dataDirectory.hasPrefix(out + "/") || dataDirectory == "/" || out == "/" else {
            return
        }
        let relation = out == dataDirectory ? "is the data directory" : (out.hasPrefix(dataDirectory + "/") ? "is inside the data directory" : "contains the data directory")
        throw .overlappingDirectories(output: output, data: data, relation: relation)
    }

    /// The absolute path with every symbolic link of its existing part resolved; the part that
    /// does not exist yet is appended as written (after removing `.` and `..`).
    static func canonical(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = (absolute as NSString).standardizingPath
        var missing: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                return missing.isEmpty ? base : (base == "/" ? "" : base) + "/" + missing.reversed().joined(separator: "/")
            }
            let parent = (existing as NSString).deletingLastPathComponent
            guard parent != existing, !parent.isEmpty else { return absolute }
            missing.append((existing as NSString).lastPathComponent)
            existing = parent
        }
    }
}
