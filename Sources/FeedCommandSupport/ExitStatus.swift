import FeedStorage

/// The exit codes of every Feedmill command: one table, read by the commands' `--help`, by
/// the man pages' EXIT STATUS section (through the help text) and by
/// `docs/generated/exit-status.md` (`--print-exit-status-reference`, ``reference``). The
/// libraries report what happened; only here does that become a number.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// The run finished; some feeds failed and were recorded for a later retry.
    public static let someFeedsFailed: Int32 = 1
    /// Bad options (swift-argument-parser's validation code).
    public static let usage: Int32 = 64
    /// Nothing could be done: unreadable feed list, unusable data directory, database error.
    public static let fatal: Int32 = 70
    /// Another Feedmill run holds the data directory's lock; try again later.
    public static let busy: Int32 = 75
    /// What was to be read or written to does not exist (EX_NOINPUT): a missing bucket.
    public static let missing: Int32 = 66
    /// The service did not answer (EX_UNAVAILABLE): an endpoint refusing connections.
    public static let unavailable: Int32 = 69
    /// Reading or writing the target failed otherwise (EX_IOERR).
    public static let ioError: Int32 = 74
    /// Refused: wrong credentials or no permission (EX_NOPERM).
    public static let denied: Int32 = 77

    /// Stopped by a signal: 130 for SIGINT (Ctrl-C), 143 for SIGTERM, as shells report them.
    public static func interrupted(by signal: Int32) -> Int32 { 128 + signal }

    /// One documented exit code.
    public struct Entry: Sendable, Equatable {
        public let code: Int32
        /// A short name, as scripts and the table call it.
        public let name: String
        /// What it means, as `--help` says it (lower case, no final stop).
        public let meaning: String
        /// What it means for commands that say it otherwise (`rss-publish`, `rss-inspect`).
        public let byCommand: [String: String]
    }

    /// Every exit code, in order.
    public static let reference: [Entry] = [
        Entry(
            code: success, name: "success", meaning: "done",
            byCommand: ["rss-inspect": "the source is a feed"]),
        Entry(
            code: someFeedsFailed, name: "some-feeds-failed", meaning: "some feeds failed (recorded, retried later with backoff)",
            byCommand: [
                "rss-publish": "some feed databases could not be read (the others were published; those keep their last good "
                    + "snapshot), or a value was published as NULL or left out (said on standard error)",
                "rss-inspect": "it could not be read or is not a feed (one line on stderr says why)",
            ]),
        Entry(
            code: usage, name: "usage", meaning: "usage or configuration error",
            byCommand: ["rss-publish": "usage or configuration error (the output directory overlaps the data directory, for one)"]),
        Entry(
            code: missing, name: "missing", meaning: "what to write to does not exist",
            byCommand: ["rss-publish": "the bucket of --out s3://bucket/prefix does not exist"]),
        Entry(
            code: unavailable, name: "unavailable", meaning: "a service did not answer",
            byCommand: ["rss-publish": "the object storage endpoint did not answer (after retries)"]),
        Entry(
            code: fatal, name: "fatal", meaning: "fatal error (unreadable feed list, unusable data directory, database error)",
            byCommand: ["rss-publish": "fatal error (manifest.json missing or unusable beside published files: see --recover)"]),
        Entry(
            code: ioError, name: "io-error", meaning: "reading or writing the output failed",
            byCommand: ["rss-publish": "object storage refused a request otherwise (said on standard error)"]),
        Entry(
            code: busy, name: "busy", meaning: "another run holds the data directory",
            byCommand: ["rss-publish": "another rss-publish holds the output (directory, or the shard's lock object in a bucket), "
                + "or committed the root first"]),
        Entry(
            code: denied, name: "denied", meaning: "permission denied",
            byCommand: ["rss-publish": "object storage refused the credentials or the access (AWS_* variables, ~/.aws files)"]),
        Entry(
            code: interrupted(by: 2), name: "interrupted-sigint", meaning: "interrupted by SIGINT (Ctrl-C)", byCommand: [:]),
        Entry(
            code: interrupted(by: 15), name: "interrupted-sigterm",
            meaning: "interrupted by SIGTERM (feeds in flight were aborted and are due next run)", byCommand: [:]),
    ]

    /// The paragraph of `--help` for the commands that use every code but rss-publish's own, as
    /// ``reference`` says them.
    public static let helpText = "Exit status: "
        + reference.filter { !publishingOnly.contains($0.code) }.map { "\($0.code) \($0.meaning)" }.joined(separator: "; ") + "."

    /// The codes only rss-publish gives (a target's failures), left out of the other commands' help.
    static let publishingOnly: Set<Int32> = [missing, unavailable, ioError, denied]

    /// The paragraph of `--help` for `command`, which ends only with `codes`, each said as the
    /// command says it.
    public static func helpText(for command: String, codes: [Int32]) -> String {
        let said = reference.filter { codes.contains($0.code) }.map { "\($0.code) \($0.byCommand[command] ?? $0.meaning)" }
        return "Exit status: " + said.joined(separator: "; ") + "."
    }

    /// `docs/generated/exit-status.md`: the table as Markdown.
    public static var markdownReference: String {
        var lines = [
            "<!-- Generated by Scripts/generate-docs from ExitStatus.reference (Sources/FeedCommandSupport/ExitStatus.swift); do not edit. -->",
            "# Exit status",
            "",
            "Every Feedmill command ends with one of these codes. A run that could not work at all says why in one line on standard error.",
            "",
            "| Code | Name | Meaning |",
            "|---:|---|---|",
        ]
        for entry in reference {
            var meaning = entry.meaning.prefix(1).uppercased() + entry.meaning.dropFirst() + "."
            for command in entry.byCommand.keys.sorted() {
                meaning += " `\(command)`: \(entry.byCommand[command] ?? "")."
            }
            lines.append("| \(entry.code) | `\(entry.name)` | \(meaning.replacingOccurrences(of: "|", with: "\\|")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // The libraries' outcomes, as exit codes.

    /// 75 when another run holds the data directory, else 70.
    public static func of(_ error: DataDirectoryError) -> Int32 {
        if case .busy = error { return busy }
        return fatal
    }
}

/// An error a command's work can end with: said in one line, and turned into its exit code.
public protocol CommandFailure: Error, CustomStringConvertible {
    var exitStatus: Int32 { get }
}

extension DataDirectoryError: CommandFailure {
    public var exitStatus: Int32 { ExitStatus.of(self) }
}
