import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

extension Catalog {
    /// Every feedid the catalog at `path` lists, in order, and nothing else: what shell
    /// completion offers for `--feed`. One query, so a catalog of many thousands answers a
    /// Tab at once. Opened read-only and immutable, so pressing Tab never writes a byte into
    /// a data directory (not even SQLite's `-wal`/`-shm` files, which a completion run by
    /// another user than the data directory's owner would leave behind, owned by it); feeds
    /// added by a writer still running are the only ones it may miss.
    /// Anything but a plain file (a FIFO, where a read-only open waits for a writer and the
    /// shell with it) is refused before SQLite opens it.
    public static func feedIDs(at path: String) throws(StorageError) -> [Int64] {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw StorageError(path: path, message: "not a plain file: nothing to complete from")
        }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try StorageError.wrap(path, "opening") { try DatabaseQueue(path: immutableURI(path), configuration: configuration) }
        return try StorageError.wrap(path, "reading feedids") {
            try queue.inDatabase { db in try Int64.fetchAll(db, sql: "SELECT feedid FROM feeds ORDER BY feedid") }
        }
    }
}
