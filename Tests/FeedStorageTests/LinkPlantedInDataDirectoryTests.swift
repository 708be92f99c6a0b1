import FeedStorage
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whoever owns the data directory (the service's user) can put a link where Feedmill will
/// write. Root running by hand with `--allow-other-user` must then neither write through it
/// nor give away the file it points at.
@Suite("A link planted in the data directory")
struct LinkPlantedInDataDirectoryTests {
    @Test func theLockNeverTruncatesNorCreatesAFileALinkPointsAt() throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let victim = directory.url.path + "/victim"
        try Data("root:secret\n".utf8).write(to: URL(fileURLWithPath: victim))
        let lockPath = DataDirectory(data).lockPath
        #expect(symlink(victim, lockPath) == 0)
        #expect(throws: DataDirectoryError.self) { _ = try RunLock(directory: data) }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "root:secret\n", "the link's target is untouched")

        // A dangling link: nothing is created where it points.
        let absent = directory.url.path + "/cron-job"
        #expect(unlink(lockPath) == 0 && symlink(absent, lockPath) == 0)
        do {
            _ = try RunLock(directory: data)
            Issue.record("a lock through a link")
        } catch {
            #expect(error.description.contains("is not a plain file of its own"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: absent))

        // A second name of another file is refused too.
        #expect(unlink(lockPath) == 0 && link(victim, lockPath) == 0)
        #expect(throws: DataDirectoryError.self) { _ = try RunLock(directory: data) }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "root:secret\n")

        // A plain lock file left by an earlier run is used as before.
        #expect(unlink(lockPath) == 0)
        try Data("12\n".utf8).write(to: URL(fileURLWithPath: lockPath))
        let lock = try RunLock(directory: data)
        #expect(try String(contentsOfFile: lockPath, encoding: .utf8) == "\(getpid())\n")
        _ = lock
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory away"))
    func rootGivesAwayOnlyThePlainFilesItCreatedNeverALinksTarget() throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        #expect(chown(data, 4242, 4243) == 0 && chmod(data, 0o755) == 0)
        let victim = directory.url.path + "/shadow"
        try Data("secret".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(chmod(victim, 0o600) == 0)
        #expect(symlink(victim, data + "/all_feeds.sqlite") == 0)
        #expect(link(victim, data + "/all_feeds.sqlite-wal") == 0)
        let own = data + "/all_feeds.sqlite-shm"
        try Data().write(to: URL(fileURLWithPath: own))

        CreatedFileOwnership.adopt(paths: ["", "-wal", "-shm"].map { data + "/all_feeds.sqlite" + $0 }, in: data)

        var info = stat()
        #expect(stat(victim, &info) == 0)
        #expect(info.st_uid == 0 && info.st_gid == 0 && info.st_mode & 0o7777 == 0o600, "the target keeps root's owner and mode")
        #expect(lstat(own, &info) == 0)
        #expect(info.st_uid == 4242 && info.st_gid == 4243 && info.st_mode & 0o7777 == 0o644, "the plain file is the owner's")
    }
}
