/// The version every command prints (`--version`) and the User-Agent names.
public enum FeedmillVersion {
    public static let current = "0.1.0"

    /// What `--version` prints: `rss-update 0.1.0 (commit 7273d7c, built 2026-11-27)`. The
    /// commit and its date come from the build (each command module's `BuildStamp`, written by
    /// the BuildStamp plugin from `git`; `unknown` where the source is not a git checkout),
    /// so two builds of one commit print, and are, the same bytes.
    public static func line(_ command: String, commit: String, built: String) -> String {
        "\(command) \(current) (commit \(commit), built \(built))"
    }
}
