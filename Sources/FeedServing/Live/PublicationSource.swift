/// Where the publication `rss-serve` watches is read from: a directory (`--out DIR`), or a
/// bucket (`--out s3://bucket/prefix`) that several instances, on several hosts, watch alike.
/// Every call may block (a file read, an HTTP request): callers run them off the cooperative pool.
protocol PublicationSource: Sendable {
    /// What `--out` named, for messages.
    var location: String { get }

    /// The root (`manifest.json`) unless its version is still `known`: for a directory a
    /// `stat`, for a bucket a conditional GET, so an unchanged root costs no read.
    func lookAtRoot(known: String?) -> RootLook

    /// A file of the publication read whole; nil when it is not there or cannot be read.
    func read(_ name: String) -> [UInt8]?

    /// Every name directly in the publication; nil when it cannot be listed now.
    func names() -> [String]?

    /// What tells of a change sooner than the next look, where the source has one.
    var notifier: DirectoryNotifier? { get }
}

/// What one look at the root found.
enum RootLook: Sendable, Equatable {
    case unchanged
    case absent
    /// It could not be looked at; the next look tries again.
    case failed(String)
    /// Another version: its bytes, the token that names it (what the next look passes as
    /// `known`), and when it was committed (nanoseconds since the epoch) where the source
    /// knows it finely enough to measure the delay to its events.
    case root(bytes: [UInt8], version: String, committed: Int64?)
}
