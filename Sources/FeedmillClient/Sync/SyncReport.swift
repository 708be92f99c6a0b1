/// What one sync did: enough for an app to decide whether to reload its views, and for a
/// person to see what was downloaded and why something was not.
public struct SyncReport: Sendable, Equatable, Encodable {
    public enum Outcome: String, Sendable, Encodable {
        /// Files were downloaded or removed (or some could not be: see `problems`).
        case synced
        /// The folder already held this generation: nothing downloaded.
        case upToDate = "up-to-date"
        /// The manifest's generation is older than the one applied last (a stale CDN or
        /// mirror): nothing applied, the files kept; sync again later.
        case staleGeneration = "stale-generation"
        /// The sync's deadline came first (``PublicationSync/run(deadline:progress:)``): what
        /// was finished is in place and recorded, `left` names what was not; the next sync goes
        /// on from there without downloading again what was finished.
        case deadline
        /// The task running the sync was cancelled (an app's cancel button, Ctrl-C in
        /// `rss-pull`): stopped as for a deadline, the folder as consistent.
        case cancelled
    }

    public var outcome: Outcome = .synced
    /// The manifest's generation.
    public var generation = 0
    /// The format version of the publication's `manifest.json` (0 before the contract had one,
    /// 1, or 2: a root and a pointer per feed).
    public var formatVersion = 0
    /// The generation the folder held completely before this sync, if any.
    public var previousGeneration: Int?
    /// Local names replaced by downloading the whole file.
    public var fullDownloads: [String] = []
    /// Local names brought up to date by a delta.
    public var deltaDownloads: [String] = []
    /// Every byte of every body received: the manifest, pointers, files, deltas, and
    /// downloads that were refused (headers are not counted: see `requests`).
    public var bytesDownloaded = 0
    public var bytesInFullFiles = 0
    public var bytesInDeltas = 0
    /// Of `bytesDownloaded`: `manifest.json`, and the feed pointers of format 2.
    public var bytesInManifest = 0
    public var bytesInPointers = 0
    /// Requests made, and how many of them the server answered 304 Not Modified (a pointer
    /// revalidated with its ETag: headers only).
    public var requests = 0
    public var notModified = 0
    /// What became of the catalog, and why (format 2 downloads it only when needed).
    public var catalog: CatalogCheck?
    /// Local files removed because their feed left the manifest or is no longer followed.
    public var removed: [String] = []
    /// Followed feeds the catalog lists but the manifest does not publish (never published,
    /// or failing): the app shows no items for them.
    public var notPublished: [Int64] = []
    /// Temporaries left by an earlier sync that was killed, removed by this one.
    public var temporariesRemoved = 0
    /// A delta that could not be used; the whole file was downloaded instead.
    public var deltaFallbacks: [SyncProblem] = []
    /// Files that could not be synced: their local copy (if any) is kept, and the next sync
    /// tries again.
    public var problems: [SyncProblem] = []
    /// A sync stopped by its deadline or cancelled: the local names (or `manifest.json`) it did
    /// not get to. Their local copies are kept as they were; the next sync brings them.
    public var left: [String] = []

    /// Whether the sync stopped before its end (deadline or cancel).
    public var wasInterrupted: Bool { outcome == .deadline || outcome == .cancelled }

    enum CodingKeys: String, CodingKey {
        case outcome, generation, removed, problems, left
        case previousGeneration = "previous_generation"
        case fullDownloads = "full_downloads"
        case deltaDownloads = "delta_downloads"
        case bytesDownloaded = "bytes_downloaded"
        case bytesInFullFiles = "bytes_in_full_files"
        case bytesInDeltas = "bytes_in_deltas"
        case notPublished = "not_published"
        case formatVersion = "format_version"
        case bytesInManifest = "bytes_in_manifest"
        case bytesInPointers = "bytes_in_pointers"
        case requests, catalog
        case notModified = "not_modified"
        case temporariesRemoved = "temporaries_removed"
        case deltaFallbacks = "delta_fallbacks"
    }

    /// One line: what a command prints and an app may log.
    public var summary: String {
        switch outcome {
        case .staleGeneration:
            return "generation \(generation) is older than the \(previousGeneration.map(String.init) ?? "?") already applied "
                + "(a stale copy): nothing applied, files kept"
        case .upToDate:
            var line = "generation \(generation): up to date (\(bytesDownloaded) bytes in \(requests) request(s), \(notModified) not modified)"
            if let catalog { line += "; catalog \(catalog)" }
            if !notPublished.isEmpty { line += "; \(notPublished.count) followed feed(s) not yet published" }
            return line
        case .deadline, .cancelled:
            let why = outcome == .deadline ? "stopped at the deadline" : "cancelled"
            var line = "generation \(generation): \(why): \(fullDownloads.count + deltaDownloads.count) file(s) brought up to date, "
                + "\(left.count) left for the next sync (\(bytesDownloaded) bytes in \(requests) request(s))"
            if !problems.isEmpty { line += ", \(problems.count) file(s) not synced" }
            return line
        case .synced:
            var parts = [
                "\(fullDownloads.count) full download(s)", "\(deltaDownloads.count) delta(s)",
                "\(bytesDownloaded) bytes (\(bytesInFullFiles) in full files, \(bytesInDeltas) in deltas)",
                "\(requests) request(s) (\(notModified) not modified)",
                "\(removed.count) removed",
            ]
            if let catalog { parts.append("catalog \(catalog)") }
            if !notPublished.isEmpty { parts.append("\(notPublished.count) followed feed(s) not yet published") }
            if !deltaFallbacks.isEmpty { parts.append("\(deltaFallbacks.count) delta(s) refused") }
            if temporariesRemoved > 0 { parts.append("\(temporariesRemoved) leftover temporar\(temporariesRemoved == 1 ? "y" : "ies") removed") }
            if !problems.isEmpty { parts.append("\(problems.count) file(s) not synced") }
            return "generation \(generation): " + parts.joined(separator: ", ")
        }
    }
}

/// A file and what went wrong with it.
public struct SyncProblem: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The local name (`feed_3.sqlite`), or the file named by the manifest when it had none.
    public var file: String
    public var error: ClientError

    public var description: String { "\(file): \(error.description)" }

    enum CodingKeys: String, CodingKey { case file, message }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(error.description, forKey: .message)
    }
}

/// The catalog's fate in one sync. Format 2 downloads `all_feeds.sqlite` only when the client
/// has none, when a followed feed is missing from the one it has, or when the one it has is
/// older than its maximum age (and, following every feed, whenever it changed: it is the list
/// of what is followed); otherwise the local one is kept, and said so.
public struct CatalogCheck: Sendable, Equatable, Encodable, CustomStringConvertible {
    public enum Action: String, Sendable, Encodable {
        /// The local catalog is the published one: nothing downloaded.
        case current
        /// Downloaded (see `reason`).
        case downloaded
        /// A newer one is published, but none of the reasons to download it holds.
        case kept
        /// Written from the followed feeds' pointers (``PublicationSync/CatalogSource/followed``).
        case built
        /// Written from the followed feeds' pointers before, and still as they give it.
        case unchanged
        /// It had to be downloaded but could not be (see the report's problems).
        case failed
    }

    public var action: Action
    /// Why, in words (`missing`, `feed 7 is not in the local catalog`, `86412 s old, the maximum is 86400 s`).
    public var reason: String

    public var description: String { "\(action.rawValue) (\(reason))" }
}
