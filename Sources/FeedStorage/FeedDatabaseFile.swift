import FeedBasics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What lies at a feed database's path, found without opening it with SQLite.
public enum FeedFileCondition: Equatable, Sendable {
    case missing
    /// A regular file that starts as a SQLite database and is as long as its header says.
    case healthy
    /// A regular file of zero bytes: what an interrupted first creation leaves, or damage.
    case empty
    /// Something Feedmill must not open or write: the reason, for a person.
    case unusable(String)

}

/// The files of a data directory that are feed databases, and the checks made before one is
/// opened: SQLite follows symbolic links, and opens a garbage or cut-short file only to fail
/// on the first read, so both are caught here, where a clear reason can still be given.
public enum FeedDatabaseFile {
    /// `feed_<id>.sqlite`: the name the original clients know.
    public static func fileName(feedID: Int64) -> String { DataDirectory.feedDatabaseFileName(feedID) }

    /// Looks at `path` with `lstat` (never through a link) and reads the 100-byte header.
    public static func condition(of path: String) -> FeedFileCondition {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? .missing : .unusable("cannot be examined: \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: return .unusable("is a symbolic link; Feedmill never writes through links")
        case S_IFDIR: return .unusable("is a directory, not a database file")
        default: return .unusable("is not a regular file")
        }
        let size = Int64(info.st_size)
        // A hot journal means an interrupted write that SQLite rolls back on open: until then
        // the size may disagree with the header, and a new file's first transaction, which
        // writes its schema and first entries at once, may have left pages but no header yet.
        if hasHotJournal(path) { return .healthy }
        if size == 0 { return .empty }
        guard let header = readHeader(path) else { return .unusable("cannot be read: \(String(cString: strerror(errno)))") }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            return .unusable("is not a SQLite database (\(size) bytes of something else)")
        }
        let rawPageSize = Int64(header[16]) << 8 | Int64(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pageCount = header[28..<32].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        // The in-header page count is only valid when the two change counters agree.
        if header[24..<28].elementsEqual(header[92..<96]), pageCount > 0, size < pageCount * pageSize {
            return .unusable("is truncated: \(size) of \(pageCount * pageSize) bytes")
        }
        return .healthy
    }

    /// Renames a damaged or foreign file (and its journal, which would otherwise be rolled
    /// into the next file of that name) to `<name>.set-aside-<time>`, never deleting it: a
    /// person may recover what it holds. Renaming a symbolic link moves the link, not its
    /// target. Returns the new path.
    public static func setAside(_ path: String, at time: Int64) throws(StorageError) -> String {
        var target = "\(path).set-aside-\(time)"
        var suffix = 1
        while lstatExists(target) {
            suffix += 1
            target = "\(path).set-aside-\(time)-\(suffix)"
        }
        let journal = path + "-journal"
        if lstatExists(journal) {
            try StorageError.files { () throws(FileError) in try DurableFiles.rename(journal, to: target + "-journal") }
        }
        try StorageError.files { () throws(FileError) in try DurableFiles.rename(path, to: target) }
        return target
    }

    /// The feedids that have a file in `directory` under a feed database name (set-aside
    /// copies and journals included): a new feed must never be given one of them.
    public static func feedIDs(inDirectory directory: String) -> [Int64] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap(DataDirectory.feedID(inFileName:))
    }

    /// The live feed databases (`feed_<id>.sqlite` exactly) in `directory`, by feedid.
    public static func databases(inDirectory directory: String) -> [Int64] {
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        return Set(feedIDs(inDirectory: directory)).filter { names.contains(fileName(feedID: $0)) }.sorted()
    }

    /// The SQLite header's `application_id` (bytes 68–71), where ``FeedIdentity`` keeps its
    /// brief stamp; `nil` when the file cannot be read that far.
    static func applicationID(of path: String) -> Int32? {
        guard let header = readHeader(path), header.count == 100 else { return nil }
        return Int32(bitPattern: header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    private static func readHeader(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 100)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 100, 0) }
        guard count >= 0 else { return nil }
        return Array(buffer.prefix(count))
    }

    /// A regular `-journal` file that starts with SQLite's journal magic: one SQLite rolls back.
    private static func hasHotJournal(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path + "-journal", &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return false }
        return readHeader(path + "-journal")?.starts(with: journalMagic) == true
    }

    private static let journalMagic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

    private static func lstatExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
