import FeedCommandSupport

/// rss-feeds' exit statuses, said per subcommand: what `list` can end with is not what
/// `remove` can, and none of them fetches, so rss-update's words ("some feeds failed,
/// retried later with backoff") are not theirs. The codes are the table's (``ExitStatus``).
enum FeedsExitStatus {
    /// Meanings every subcommand shares.
    static let shared: [Int32: String] = [
        64: "usage error",
        66: "no catalog in the data directory (run rss-create first, or point at another with --data-dir)",
        70: "internal error (the catalog could not be read or written)",
        73: "the data directory's lock cannot be created",
        75: "another run holds the data directory (add, remove and set wait for no one)",
        77: "permission denied, or the data directory belongs to another user",
    ]

    /// The top level's paragraph: every code any subcommand gives.
    static var anySubcommand: [Int32: String] {
        shared.merging([0: "done", 1: "remove: a feed left the catalog but its database could not be removed"]) { $1 }
    }

    /// A subcommand's paragraph of `--help`.
    static func text(for subcommand: String, codes: [Int32], meanings: [Int32: String]) -> String {
        ExitStatus.helpText(for: "rss-feeds \(subcommand)", codes: codes, meanings: shared.merging(meanings) { $1 })
    }
}
