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
    /// Something went wrong inside: a bug, an unexpected database error, a lost catalog.
    /// Never for what the operator can fix with a path, an owner or a mode (those are 66, 73, 77).
    public static let fatal: Int32 = 70
    /// Another Feedmill run holds the data directory's lock; try again later.
    public static let busy: Int32 = 75
    /// A file or directory named as input is missing (the feed list, the file `--config`
    /// names, the catalog in the data directory, a bucket): EX_NOINPUT.
    public static let noInput: Int32 = 66
    /// The publication's target cannot be reached: EX_UNAVAILABLE.
    public static let unavailable: Int32 = 69
    /// A file or directory cannot be created (the data directory, its lock): EX_CANTCREAT.
    public static let cannotCreate: Int32 = 73
    /// The publication's target failed an operation otherwise: EX_IOERR.
    public static let ioError: Int32 = 74
    /// Permission denied (EACCES, EPERM), a directory another user owns, or a target that
    /// refused the credentials: EX_NOPERM.
    public static let noPermission: Int32 = 77

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
        /// The only commands that give it, when not every command can (empty: every one).
        public var onlyFor: Set<String> = []
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
            code: noInput, name: "no-input",
            meaning: "a file or directory named as input is missing (the feed list, the file --config names, "
                + "the catalog in the data directory)",
            byCommand: [
                "rss-publish": "the data directory has no catalog, or what the publication's target is in is missing (a bucket)"
            ]),
        Entry(
            code: unavailable, name: "target-unreachable",
            meaning: "the publication's target cannot be reached (refused, timed out, retries exhausted)", byCommand: [:],
            onlyFor: ["rss-publish"]),
        Entry(
            code: fatal, name: "fatal", meaning: "internal error (a lost catalog, an unexpected database error, a bug)",
            byCommand: ["rss-publish": "internal error (manifest.json or this shard's record missing or unusable beside published files: see --recover)"]),
        Entry(
            code: cannotCreate, name: "cannot-create",
            meaning: "a file or directory cannot be created (the data directory, its lock), the message naming the path and why", byCommand: [:]),
        Entry(
            code: ioError, name: "target-failed", meaning: "the publication's target failed an operation",
            byCommand: [:], onlyFor: ["rss-publish"]),
        Entry(
            code: busy, name: "busy", meaning: "another run holds the data directory",
            byCommand: [
                "rss-publish": "another rss-publish holds the output directory, or committed the root of this shard first "
                    + "(nothing was committed, and the next run repairs what it wrote)"
            ]),
        Entry(
            code: noPermission, name: "no-permission",
            meaning: "permission denied (the message names the errno and the path), or the directory belongs to another user "
                + "(run as its owner, or pass --allow-other-user)",
            byCommand: [
                "rss-publish": "permission denied, the output directory belongs to another user (run as its owner, or pass "
                    + "--allow-other-user), or the publication's target refused access (wrong credentials)"
            ]),
        Entry(
            code: interrupted(by: 2), name: "interrupted-sigint", meaning: "interrupted by SIGINT (Ctrl-C)", byCommand: [:]),
        Entry(
            code: interrupted(by: 15), name: "interrupted-sigterm",
            meaning: "interrupted by SIGTERM (feeds in flight were aborted and are due next run)", byCommand: [:]),
    ]

    /// The paragraph of `--help` for the commands that use every code as ``reference`` says it.
    public static let helpText = "Exit status: " + reference.filter(\.onlyFor.isEmpty).map { "\($0.code) \($0.meaning)" }.joined(separator: "; ") + "."

    /// The paragraph of `--help` for `command`, which ends only with `codes` (in the order
    /// given), each said as the command says it: `meanings` first (what a subcommand of
    /// rss-feeds means by it), else the table's words for the command, else the table's own.
    public static func helpText(for command: String, codes: [Int32], meanings: [Int32: String] = [:]) -> String {
        let said = codes.compactMap { code -> String? in
            let entry = reference.first { $0.code == code }
            return (meanings[code] ?? entry.map { $0.byCommand[command] ?? $0.meaning }).map { "\(code) \($0)" }
        }
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
            if !entry.onlyFor.isEmpty { meaning += " Only " + entry.onlyFor.sorted().map { "`\($0)`" }.joined(separator: ", ") + "." }
            for command in entry.byCommand.keys.sorted() {
                meaning += " `\(command)`: \(entry.byCommand[command] ?? "")."
            }
            lines.append("| \(entry.code) | `\(entry.name)` | \(meaning.replacingOccurrences(of: "|", with: "\\|")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // The libraries' outcomes, as exit codes.

    /// 75 when another run holds the data directory; 66 no catalog (or no directory there);
    /// 73 cannot create; 77 permission or another user's directory; else 70.
    public static func of(_ error: DataDirectoryError) -> Int32 {
        switch error {
        case .busy: return busy
        case .noCatalog, .unusable: return noInput
        case .cannotCreate: return cannotCreate
        case .denied, .otherOwner: return noPermission
        case .storage(let storage): return of(storage)
        case .catalogLost: return fatal
        }
    }

    /// 77 for a database this user may not write (the message says the fix), else 70.
    public static func of(_ error: StorageError) -> Int32 {
        error.kind == .notWritable ? noPermission : fatal
    }
}

/// An error a command's work can end with: said in one line, and turned into its exit code.
public protocol CommandFailure: Error, CustomStringConvertible {
    var exitStatus: Int32 { get }
}

extension DataDirectoryError: CommandFailure {
    public var exitStatus: Int32 { ExitStatus.of(self) }
}
