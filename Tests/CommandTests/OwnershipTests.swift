import FeedBasics
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Root running a command by hand over the service's data directory used to leave root-owned
/// files the service could never write again. These run the built binaries as root (as the
/// tests do here and in CI) over directories given to other users, and as other users
/// through `setpriv`.
@Suite("The data directory's owner", .serialized, .enabled(if: getuid() == 0, "needs root to give directories to other users"))
struct OwnershipTests {
    /// A uid with no name on this system, and one with a name (Debian has `nobody`).
    static let unnamed: uid_t = 4242
    static let nobody: uid_t = 65534

    @Test func aWritingCommandRunAsRootRefusesAnotherUsersDataDirectoryAndWritesNothing() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        try Self.give(run.data, to: Self.unnamed, group: Self.unnamed)
        let before = try Self.owners(run.data)
        let sizes = try run.listing(run.data)
        let update = try run.update.runCapturing(["--feed", "1"] + run.options)
        #expect(update.status == 77, "EX_NOPERM: \(update.stderr)")
        let expected = "rss-update: the data directory \(run.data) belongs to uid 4242, and this is root: files written now would not be "
            + "writable by uid 4242. Run it as the owner: \"sudo -u '#4242' rss-update --feed 1 --data-dir \(run.data) "
            + "--allow-private-networks --concurrency 2\", or pass --allow-other-user.\n"
        #expect(update.stderr == expected)
        let feeds = Executable(name: "rss-feeds")
        for (name, result) in [
            ("rss-create", try run.createAll()),
            ("rss-feeds add", try feeds.runCapturing(["add", run.server.baseURL + "/feed/9.xml", "--title", "It's new", "--data-dir", run.data])),
            ("rss-feeds remove", try feeds.runCapturing(["remove", "2", "--data-dir", run.data])),
            ("rss-feeds set", try feeds.runCapturing(["set", "1", "--keep-items", "5", "--data-dir", run.data])),
        ] {
            #expect(result.status == 77, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("belongs to uid 4242, and this is root"), "\(name): \(result.stderr)")
        }
        // Re-quoted for a shell: the title with a space and an apostrophe.
        let add = try feeds.runCapturing(["add", "https://a.example/f", "--title", "It's new", "--data-dir", run.data])
        #expect(add.stderr.contains(#"sudo -u '#4242' rss-feeds add https://a.example/f --title 'It'\''s new' --data-dir "#), "\(add.stderr)")
        #expect(try Self.owners(run.data) == before, "nothing created, changed or removed")
        #expect(try run.listing(run.data) == sizes)
        // Reading is not writing: list and export work for anyone.
        let list = try feeds.runCapturing(["list", "--data-dir", run.data])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(try Self.owners(run.data) == before)
    }

    /// A data directory named through a link is its target's: root is refused there as in the
    /// directory itself, with --allow-other-user gives the target's owner what it creates, and
    /// the owner is not refused for the link's owner (root, who made it).
    @Test func aDataDirectoryNamedThroughALinkIsTheTargetsOwners() throws {
        let run = try BinaryRun(feeds: 1)
        let real = run.root.url.path + "/real", link = run.root.url.path + "/data-link"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        #expect(chown(real, Self.unnamed, 4243) == 0 && chmod(real, 0o750) == 0)
        #expect(symlink(real, link) == 0)
        let options = ["--data-dir", link, "--allow-private-networks"]
        let refused = try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml"] + options)
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("belongs to uid 4242, and this is root"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty, "nothing written")
        let allowed = try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml", "--allow-other-user"] + options)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let files = try Self.owners(real)
        #expect(files.keys.contains("all_feeds.sqlite") && files.keys.contains(".feedmill.lock"), "\(files)")
        for (name, owner) in files {
            #expect(owner == "4242:4243 0640", "\(name)")
        }
        let asOwner = try Self.run(run.update, ["--all"] + options, as: Self.unnamed, group: 4243)
        #expect(asOwner.status == 0, "the owner through the link root made: \(asOwner.stderr)")
    }

    /// The line "Done means" matches: a named owner, and the command as given.
    @Test func theRefusalNamesTheOwnerAndTheSudoLineAsGiven() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        try Self.give(run.data, to: Self.nobody, group: 65534)
        let update = try run.update.runCapturing(["--feed", "42"], environment: ["FEEDMILL_DATA_DIR": run.data])
        #expect(update.status == 77, "\(update.stderr)")
        #expect(update.stderr.contains("belongs to nobody"), "\(update.stderr)")
        #expect(update.stderr.contains("\"sudo -u nobody rss-update --feed 42\", or pass --allow-other-user."), "\(update.stderr)")
        // The owner itself is not refused (feed 42 is unknown: 64, after the check).
        let asOwner = try Self.run(run.update, ["--feed", "42"], as: Self.nobody, environment: ["FEEDMILL_DATA_DIR": run.data])
        #expect(asOwner.status == 64 && asOwner.stderr.contains("no feed with feedid 42"), "\(asOwner.stderr)")
    }

    @Test func rssPublishRefusesAnOutputDirectoryAnotherUserOwns() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        try FileManager.default.createDirectory(atPath: run.out, withIntermediateDirectories: true)
        try Self.give(run.out, to: Self.unnamed, group: Self.unnamed)
        let refused = try run.publishAll()
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("the output directory \(run.out) belongs to uid 4242, and this is root"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.out).isEmpty)
        #expect(chmod(run.out, 0o750) == 0)
        let allowed = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--allow-other-user"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(FileManager.default.fileExists(atPath: run.out + "/manifest.json"))
        let published = try Self.owners(run.out)
        #expect(published.count > 3, "\(published)")
        for (name, owner) in published {
            #expect(owner == "4242:4242 0640", "\(name)")
        }
    }

    @Test func withAllowOtherUserRootGivesWhatItCreatesTheDirectorysOwnerGroupAndMode() throws {
        let run = try BinaryRun(feeds: 2)
        try FileManager.default.createDirectory(atPath: run.data, withIntermediateDirectories: true)
        #expect(chown(run.data, Self.unnamed, 4243) == 0 && chmod(run.data, 0o750) == 0)
        let refused = try run.createAll()
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.data).isEmpty, "nothing written")
        let created = try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml", "--allow-other-user"] + run.options)
        #expect(created.status == 0, "\(created.stderr)")
        let files = try Self.owners(run.data)
        #expect(Set(files.keys).isSuperset(of: [".feedmill.lock", "all_feeds.sqlite", "feed_1.sqlite", "feed_2.sqlite"]), "\(files)")
        for (name, owner) in files {
            #expect(owner == "4242:4243 0640", "\(name)")
        }
        // The environment says it too; and the owner's service can go on writing them.
        let updated = try run.update.runCapturing(["--all"] + run.options, environment: ["FEEDMILL_ALLOW_OTHER_USER": "1"])
        #expect(updated.status == 0, "\(updated.stderr)")
        let asOwner = try Self.run(run.update, ["--all"] + run.options, as: Self.unnamed, group: 4243)
        #expect(asOwner.status == 0, "\(asOwner.stderr)")
        for (name, owner) in try Self.owners(run.data) {
            #expect(owner == "4242:4243 0640", "\(name)")
        }
    }

    /// The service meets a feed database root left behind: one line, no SQL, the fix; its own
    /// failure kind, and no backoff (the feed is fine).
    @Test func aFeedDatabaseTheRunCannotWriteIsSaidInOneLineWithTheChownThatFixesIt() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        try Self.give(run.data, to: Self.nobody, group: 65534)
        let database = run.data + "/feed_1.sqlite"
        #expect(chown(database, 0, 0) == 0 && chmod(database, 0o644) == 0)
        let before = try Self.owners(run.data)["feed_1.sqlite"]
        let update = try Self.run(run.update, ["--all"] + run.options, as: Self.nobody)
        #expect(update.status == 1, "\(update.stderr)")
        let line = "cannot write \(database): owned by root:root, mode 0644, and this run is nobody (uid 65534); "
            + "fix it with: chown nobody: \(database)"
        #expect(update.stderr.contains(line), "\(update.stderr)")
        #expect(update.stderr.split(separator: "\n").count == 1, "one line: \(update.stderr)")
        for sql in ["SQL", "INSERT", "UPDATE ", "readonly database"] {
            #expect(!update.stderr.contains(sql), "\(update.stderr)")
        }
        let state = try sqlite(run.data + "/all_feeds.sqlite", "SELECT last_error_kind, consecutive_errors, next_attempt_unix_time FROM fetch_state WHERE feedid = 1")
        #expect(state == [["not-writable", "0", nil]], "no backoff")
        #expect(try sqlite(run.data + "/all_feeds.sqlite", "SELECT last_error_kind FROM fetch_state WHERE feedid = 2") == [[nil]])
        #expect(try Self.owners(run.data)["feed_1.sqlite"] == before, "left alone")
        // The fix it names works.
        #expect(chown(database, Self.nobody, 65534) == 0)
        #expect(try Self.run(run.update, ["--all"] + run.options, as: Self.nobody).status == 0)
    }

    /// A lock or a catalog left by root stops the run as the service (77), saying the fix.
    @Test func aLockOrACatalogTheRunCannotWriteStopsItWithTheChownThatFixesIt() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        try Self.give(run.data, to: Self.nobody, group: 65534)
        let lock = run.data + "/.feedmill.lock", catalog = run.data + "/all_feeds.sqlite"
        #expect(chown(lock, 0, 0) == 0 && chmod(lock, 0o644) == 0)
        let locked = try Self.run(run.update, ["--all"] + run.options, as: Self.nobody)
        #expect(locked.status == 77, "\(locked.stderr)")
        #expect(locked.stderr == "rss-update: cannot write in data directory \(run.data): cannot write \(lock): owned by root:root, mode 0644, "
            + "and this run is nobody (uid 65534); fix it with: chown nobody: \(lock)\n")
        #expect(chown(lock, Self.nobody, 65534) == 0 && chown(catalog, 0, 0) == 0 && chmod(catalog, 0o644) == 0)
        let before = try sqlite(catalog, "SELECT * FROM fetch_state")
        let stopped = try Self.run(run.update, ["--all"] + run.options, as: Self.nobody)
        #expect(stopped.status == 77, "\(stopped.stderr)")
        #expect(stopped.stderr == "rss-update: cannot write \(catalog): owned by root:root, mode 0644, and this run is nobody (uid 65534); "
            + "fix it with: chown nobody: \(catalog)\n")
        #expect(try sqlite(catalog, "SELECT * FROM fetch_state") == before)
    }

    /// sysexits: 77 for a permission, with the errno's name and the path.
    @Test func aFeedListOrADataDirectoryThisUserMayNotReachIsPermissionDenied() throws {
        let run = try BinaryRun(feeds: 1)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: run.root.url.path)
        let list = try run.root.write("list.opml", "<opml><body/></opml>")
        #expect(chmod(list, 0o600) == 0)
        let unreadable = try Self.run(run.create, ["--opml", list, "--data-dir", "/tmp/feedmill-never-\(UUID().uuidString)"], as: Self.nobody)
        #expect(unreadable.status == 77, "\(unreadable.stderr)")
        #expect(unreadable.stderr.contains("cannot read the feed list \(list): Permission denied (EACCES)"), "\(unreadable.stderr)")
        // A data directory in a directory root owns: cannot be created, for want of permission.
        #expect(chmod(list, 0o644) == 0)
        let data = run.root.url.path + "/sub/data"
        let denied = try Self.run(run.create, ["--opml", list, "--data-dir", data], as: Self.nobody)
        #expect(denied.status == 77, "\(denied.stderr)")
        #expect(denied.stderr.contains("cannot create \(run.root.url.path)/sub: Permission denied (EACCES)"), "\(denied.stderr)")
        #expect(!FileManager.default.fileExists(atPath: run.root.url.path + "/sub"))
    }

    /// A file on the search path this user may not read is said, not skipped for ./data (77).
    @Test func aConfigurationFileOnTheSearchPathThisUserMayNotReadIsPermissionDenied() throws {
        let root = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.url.path)
        try FileManager.default.createDirectory(atPath: root.url.path + "/xdg/feedmill", withIntermediateDirectories: true)
        let file = try root.write("xdg/feedmill/feedmill.toml", "concurrency = 3\n")
        #expect(chmod(root.url.path + "/xdg/feedmill", 0o700) == 0)
        let environment = ["FEEDMILL_CONFIG": "", "XDG_CONFIG_HOME": root.url.path + "/xdg"]
        let denied = try Self.run(Executable(name: "rss-update"), ["--print-config"], as: Self.nobody, environment: environment)
        #expect(denied.status == 77, "\(denied.stderr)")
        #expect(denied.stderr == "rss-update: configuration file \(file) (from search path) cannot be read: Permission denied (EACCES); "
            + "FEEDMILL_CONFIG=none reads no file\n")
        let none = try Self.run(Executable(name: "rss-update"), ["--print-config"], as: Self.nobody, environment: ["FEEDMILL_CONFIG": "none"])
        #expect(none.status == 0, "\(none.stderr)")
    }

    // MARK: Helpers

    /// Gives `directory` and everything in it to `uid`.
    static func give(_ directory: String, to uid: uid_t, group gid: gid_t = 65534) throws {
        #expect(chown(directory, uid, gid) == 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            #expect(lchown(directory + "/" + name, uid, gid) == 0)
        }
        // The test's temporary directory must be reachable by the other user.
        let parent = (directory as NSString).deletingLastPathComponent
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: parent)
    }

    /// An output directory this user may not create is a permission to fix (77, the errno and
    /// the path), not an internal error; nothing is written anywhere.
    @Test func anOutputDirectoryThatMayNotBeCreatedIsAPermissionError() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        // The data directory is nobody's, so reading it as nobody works; its parent stays
        // root's (0755), so nobody may not create the output directory beside it.
        try Self.give(run.data, to: Self.nobody, group: 65534)
        let out = run.root.url.path + "/pub"
        let result = try Self.run(
            Executable(name: "rss-publish"), ["--data-dir", run.data, "--out", out], as: Self.nobody)
        #expect(result.status == 77, "EX_NOPERM: \(result.stderr)")
        #expect(result.stderr.contains("cannot create output directory \(out):"), "\(result.stderr)")
        #expect(result.stderr.contains("Permission denied (EACCES)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A data or output directory not there yet is judged by the directory it would be made
    /// in: root creating the service's missing directory inside the service's own would leave
    /// it root's. Refused (77), nothing created; allowed with --allow-other-user.
    @Test func aMissingDirectoryInsideAnotherUsersDirectoryIsTheirs() throws {
        let run = try BinaryRun(feeds: 1)
        let home = run.root.url.path + "/service"
        #expect(mkdir(home, 0o750) == 0)
        #expect(chown(home, Self.nobody, 65534) == 0)
        let data = home + "/data"
        let create = try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml", "--data-dir", data, "--allow-private-networks"])
        #expect(create.status == 77, "\(create.stderr)")
        #expect(create.stderr.contains("the data directory's parent \(home) belongs to nobody, and this is root"), "\(create.stderr)")
        #expect(create.stderr.contains("\"sudo -u nobody rss-create --opml "), "\(create.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data), "nothing created")
        // The output directory likewise.
        #expect(try run.createAll().status == 0)
        let publish = try run.publishAll(into: home + "/pub")
        #expect(publish.status == 77, "\(publish.stderr)")
        #expect(publish.stderr.contains("the output directory's parent \(home) belongs to nobody"), "\(publish.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/pub"))
        // Told to, it writes.
        let allowed = try run.create.runCapturing(
            ["--opml", run.server.baseURL + "/list.opml", "--data-dir", data, "--allow-private-networks", "--allow-other-user"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        // A root-owned parent is everyone's starting point: the tests' own data directory
        // under the root-owned temporary directory was created above without a refusal.
    }

    /// Every file with `uid:gid mode`.
    static func owners(_ directory: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0 else { continue }
            result[name] = "\(info.st_uid):\(info.st_gid) 0\(String(info.st_mode & 0o7777, radix: 8))"
        }
        return result
    }

    /// Runs a built binary as another user (``Executable/runCapturing(_:environment:as:)``),
    /// with no configuration file unless the environment names one.
    static func run(
        _ executable: Executable, _ arguments: [String], as uid: uid_t, group gid: gid_t? = nil, environment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        try executable.runCapturing(arguments, environment: environment, as: (uid, gid ?? uid))
    }
}
