import FeedBasics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A feed database that does not exist yet, written under a temporary name beside its final
/// one (`feed_42.sqlite.new`) and put in place only once its first transaction has committed.
///
/// Why: a client, `rss-publish` or a rebuilt catalog never sees a half-written new database
/// under a feed's name, and the first transaction needs no rollback journal on disk: what is
/// cut short is only ever the temporary file. Creating, syncing and deleting a journal for
/// each new feed (two `fdatasync`s and a directory sync among them) was the largest part of a
/// cold run's system time after the writes themselves.
///
/// The temporary is created with `O_EXCL | O_NOFOLLOW`, so it is this process's own file and
/// is deleted when the creation fails. One left by a run that was killed is set aside
/// (renamed, never deleted), as a damaged database is. The final name is taken without
/// replacing a file that appeared there meanwhile (``DurableFiles/moveIntoPlace(_:to:)``).
struct NewFeedFile {
    let finalPath: String

    var temporaryPath: String { finalPath + ".new" }

    /// Creates the empty temporary file.
    static func create(for finalPath: String) throws(StorageError) -> NewFeedFile {
        let file = NewFeedFile(finalPath: finalPath)
        for attempt in 0..<2 {
            let descriptor = open(file.temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                // Root allowed to write another user's directory gives the owner what it creates.
                CreatedFileOwnership.adopt(descriptor: descriptor, in: (finalPath as NSString).deletingLastPathComponent)
                close(descriptor)
                return file
            }
            guard errno == EEXIST, attempt == 0 else { break }
            // Left by an interrupted creation: kept for a person, out of the way.
            _ = try FeedDatabaseFile.setAside(file.temporaryPath, at: Int64(time(nil)))
        }
        throw StorageError(path: finalPath, message: "cannot create \(file.temporaryPath): \(String(cString: strerror(errno)))")
    }

    /// Makes the written file durable and gives it its final name, never replacing a file.
    func moveIntoPlace() throws(StorageError) {
        try StorageError.files { () throws(FileError) in try DurableFiles.moveIntoPlace(temporaryPath, to: finalPath) }
    }

    /// Removes the temporary name of the database now at `finalPath` when it is still a link
    /// to it: its removal failed just after the database was linked into place (an I/O error;
    /// issue 52). Both names are one file, so removing this one deletes nothing; any other
    /// file with that name is left for the next creation to set aside.
    static func removeLinkLeftBeside(_ finalPath: String) {
        let temporary = NewFeedFile(finalPath: finalPath).temporaryPath
        var left = stat()
        var placed = stat()
        guard lstat(temporary, &left) == 0, lstat(finalPath, &placed) == 0, (left.st_mode & S_IFMT) == S_IFREG,
            left.st_dev == placed.st_dev, left.st_ino == placed.st_ino
        else { return }
        unlink(temporary)
    }

    /// Deletes the temporary file: this process created it, and nothing committed is in it.
    func discard() {
        unlink(temporaryPath)
    }
}
