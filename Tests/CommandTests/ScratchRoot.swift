import Foundation
import TestSupport

/// A throwaway copy of this machine's root to install the Debian package into: an overlay of
/// `/` whose writes go to a scratch directory, so `dpkg -i`, `systemd-sysusers` and the
/// commands change the overlay's `/etc/passwd`, dpkg database and `/var`, never the host's.
///
/// Each ``run(_:environment:)`` mounts the overlay in a private mount namespace of its own
/// (`unshare --mount`), with `/proc` and `/dev`, and runs one command in it under `chroot`;
/// the namespace, and every mount in it, goes away with the command. What the command wrote
/// stays in the upper directory for the next one, and for ``changed(_:)`` to read from the
/// host. Needs root and overlayfs (``isAvailable``).
final class ScratchRoot {
    private let directory: TemporaryDirectory
    private var upper: URL { directory.url.appendingPathComponent("upper") }

    init() throws {
        directory = try TemporaryDirectory()
        for name in ["upper", "work", "merged"] {
            try FileManager.default.createDirectory(at: directory.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
    }

    /// Whether a scratch root can be made here: root, `unshare` and `chroot`, and an overlay
    /// of `/` that mounts (not inside some containers, or where `/` is itself an overlay
    /// without support for it).
    static let isAvailable: Bool = {
        guard getuid() == 0, InstalledTool.exists("/usr/bin/unshare"), InstalledTool.exists("/usr/sbin/chroot") else { return false }
        guard let root = try? ScratchRoot(), let result = try? root.run(["true"]) else { return false }
        return result.status == 0
    }()

    /// Runs `arguments` inside the scratch root as root, in a clean environment (PATH, HOME,
    /// LANG and `environment`: nothing of the test's own, no FEEDMILL_* variable).
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let script = """
            set -e
            mount -t overlay overlay -o "lowerdir=/,upperdir=$0/upper,workdir=$0/work" "$0/merged"
            mount -t proc proc "$0/merged/proc"
            mount --rbind /dev "$0/merged/dev"
            exec chroot "$0/merged" "$@"
            """
        let clean = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "LANG=C.UTF-8"]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try runToCompletion(
            "/usr/bin/unshare",
            ["--mount", "--propagation", "private", "/bin/sh", "-c", script, directory.url.path, "/usr/bin/env", "-i"] + clean + arguments,
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
    }

    /// Puts a file into the scratch root (at `path` inside it) from the host.
    func place(_ data: Data, at path: String) throws {
        let url = upper.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    /// `path` as the scratch root changed it, read from the host: a file or directory
    /// created or modified there (nil when it did not change; a removed file is not seen
    /// here, ask the root with `test -e`).
    func changed(_ path: String) -> URL? {
        let url = upper.appendingPathComponent(path)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
