import Foundation

/// Programs some tests run beside Feedmill (xmllint, systemd-analyze, openssl, sha256sum):
/// where one is missing the test is skipped and says why, rather than failing as if Feedmill
/// were wrong. `Scripts/setup-debian` installs them all.
public enum InstalledTool {
    /// `name` is an executable file: at that path when it has a slash, else on `PATH`.
    public static func exists(_ name: String) -> Bool {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

}
