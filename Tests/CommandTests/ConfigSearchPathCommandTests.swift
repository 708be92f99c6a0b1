import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The configuration file found where Debian puts it, and the messages that name where a
/// value came from, through the built binaries.
@Suite("Configuration search path and the data directory it names", .serialized)
struct ConfigSearchPathCommandTests {
    @Test func aConfigFileNamedButNotThereIsMissingInput() throws {
        let update = try Executable(name: "rss-update").runCapturing(["--config", "/nonexistent/feedmill.toml", "--all"])
        #expect(update.status == 66, "EX_NOINPUT: \(update.stderr)")
        #expect(update.stderr == "rss-update: configuration file /nonexistent/feedmill.toml (from command line) does not exist\n")
        let named = try Executable(name: "rss-feeds").runCapturing(["list"], environment: ["FEEDMILL_CONFIG": "/nonexistent/f.toml"])
        #expect(named.status == 66, "\(named.stderr)")
        #expect(named.stderr.contains("configuration file /nonexistent/f.toml (from environment FEEDMILL_CONFIG) does not exist"))
    }

    /// The user's file on the search path, shown by --print-config; and "no catalog" names
    /// the directory, where its path came from, and how to point at another (66).
    @Test func theUsersFileIsFoundAndNoCatalogSaysWhichDirectoryAndWhy() throws {
        let root = try TemporaryDirectory()
        let data = root.url.path + "/data"
        try FileManager.default.createDirectory(atPath: root.url.path + "/xdg/feedmill", withIntermediateDirectories: true)
        let file = try root.write("xdg/feedmill/feedmill.toml", "data-dir = \"\(data)\"\n")
        // FEEDMILL_CONFIG empty: the search path, as on a machine where it is not set.
        let environment = ["FEEDMILL_CONFIG": "", "XDG_CONFIG_HOME": root.url.path + "/xdg", "HOME": root.url.path]
        let shown = try Executable(name: "rss-update").runCapturing(["--print-config"], environment: environment)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("# configuration file: \(file) (search path)\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains("#   search path: \(file): used\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains("#   search path: /etc/feedmill/feedmill.toml: not looked at\n"), "\(shown.stdout)")
        #expect(shown.stdout.contains("data-dir") && shown.stdout.contains("\"\(data)\"  # \(file):1"), "\(shown.stdout)")

        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let update = try Executable(name: "rss-update").runCapturing(["--feed", "42"], environment: environment)
        #expect(update.status == 66, "EX_NOINPUT: \(update.stderr)")
        #expect(update.stderr == "rss-update: no catalog in \(data) (data-dir from \(file)): run rss-create first, "
            + "or point at another data directory with --data-dir or FEEDMILL_DATA_DIR\n")
        let list = try Executable(name: "rss-feeds").runCapturing(["list"], environment: environment.merging(["FEEDMILL_DATA_DIR": data]) { $1 })
        #expect(list.status == 66 && list.stderr.contains("no catalog in \(data) (data-dir from environment FEEDMILL_DATA_DIR)"), "\(list.stderr)")
        let publish = try Executable(name: "rss-publish").runCapturing(["--data-dir", data, "--out", root.url.path + "/out"])
        #expect(publish.status == 66 && publish.stderr.contains("no catalog in \(data) (data-dir from command line)"), "\(publish.stderr)")
    }

    /// "Done means": `rss-update --feed 42` run by hand as root reads /etc/feedmill/feedmill.toml,
    /// refuses to write into the service's data directory and says how to run it correctly.
    /// /etc is overlaid in a private mount namespace: the machine's own is never touched.
    @Test(.enabled(if: getuid() == 0 && EtcOverlay.works, "needs root, unshare and overlayfs to put a file in /etc privately"))
    func byHandAsRootTheSystemFileIsReadAndTheServicesDirectoryRefused() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        try OwnershipTests.give(run.data, to: 65534, group: 65534)
        let config = try run.root.write("system.toml", "data-dir = \"\(run.data)\"\nallow-private-networks = true\n")
        let home = ["FEEDMILL_CONFIG": "", "HOME": run.root.url.path + "/home", "XDG_CONFIG_HOME": ""]
        let shown = try EtcOverlay.run(run.update, ["--print-config"], config: config, environment: home)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("# configuration file: /etc/feedmill/feedmill.toml (search path)"), "\(shown.stdout)")
        #expect(shown.stdout.contains("#   search path: ./feedmill.toml: not there"))
        #expect(shown.stdout.contains("#   search path: \(run.root.url.path)/home/.config/feedmill/feedmill.toml: not there"))
        #expect(shown.stdout.contains("#   search path: /etc/feedmill/feedmill.toml: used"))
        let before = try run.listing(run.data)
        let update = try EtcOverlay.run(run.update, ["--feed", "42"], config: config, environment: home)
        #expect(update.status == 77, "\(update.stderr)")
        #expect(update.stderr.contains("belongs to nobody"), "\(update.stderr)")
        #expect(update.stderr.contains("sudo -u nobody rss-update --feed 42"), "\(update.stderr)")
        #expect(try run.listing(run.data) == before)
    }
}

/// Runs a binary with a file at /etc/feedmill/feedmill.toml seen by it alone: /etc overlaid
/// (overlayfs, upper layer in a temporary directory) in a private mount namespace (`unshare -m`).
enum EtcOverlay {
    static let works: Bool = {
        guard InstalledTool.exists("/usr/bin/unshare"), let scratch = try? TemporaryDirectory() else { return false }
        let result = try? run(URL(fileURLWithPath: "/bin/true"), [], config: nil, scratch: scratch, environment: [:])
        return result?.status == 0
    }()

    static func run(
        _ executable: Executable, _ arguments: [String], config: String, environment: [String: String]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(executable.url, arguments, config: config, scratch: try TemporaryDirectory(), environment: environment)
    }

    private static func run(
        _ binary: URL, _ arguments: [String], config: String?, scratch: TemporaryDirectory, environment: [String: String]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let upper = scratch.url.path + "/upper", work = scratch.url.path + "/work"
        for directory in [upper, work] { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        let script = "mount -t overlay overlay -o lowerdir=/etc,upperdir=\(upper),workdir=\(work) /etc || exit 99; "
            + (config.map { "mkdir -p /etc/feedmill && cp '\($0)' /etc/feedmill/feedmill.toml || exit 98; " } ?? "")
            + "exec \"$@\""
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FEEDMILL_") }
        inherited.merge(environment) { $1 }
        return try runToCompletion("/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", binary.path] + arguments, environment: inherited)
    }
}
