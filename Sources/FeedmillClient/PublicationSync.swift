import Foundation

/// Keeps a local folder in step with a Feedmill publication (what `rss-publish` writes), so an
/// app opens `all_feeds.sqlite` and `feed_<id>.sqlite` from its own storage and never a file
/// half written, half verified or from another feed.
///
/// One ``run()`` reads `manifest.json`: in publication format 2 a small root, then each
/// followed feed's pointer (`feed_<id>.json`, revalidated with the ETag kept from the last
/// sync, so an unchanged feed costs a 304 and no body), the catalog only when it is needed
/// (see ``catalogMaxAge``); in format 1 (or 0) one manifest listing every feed. It brings each
/// followed feed to the published version (by a delta when one applies to the version held,
/// else the whole file), checks every download's SHA-256 and every database's content
/// digest, and removes the files of feeds that left. It follows the client contract
/// (docs/client-contract.md) to the letter: a manifest format it does not know is refused, a
/// stale generation is not applied, a file that fails a check never replaces a good one.
///
/// Killed at any point, the next run converges: every file is replaced by rename and the
/// client's state (`.feedmill-client.json`) is rewritten after each one. Two runs on one folder
/// do not interleave: the second gets ``ClientError/busy(path:)``.
public struct PublicationSync: Sendable {
    /// The publication's directory (`https://cdn.example/feeds/`, or a `file:` URL).
    public let baseURL: URL
    /// Where the databases are kept; created if missing. Files the client did not write there
    /// are never touched.
    public let folder: URL
    public let feeds: FollowedFeeds
    public let transport: any ClientTransport
    /// Format 2: the longest (seconds) a local catalog is kept while a newer one is published,
    /// when the client has one and it lists every followed feed. Following every feed
    /// (``FollowedFeeds/all``), the catalog is the list of feeds, and is downloaded whenever it
    /// changed. Format 1 names the catalog in every manifest and downloads it whenever it changed.
    public let catalogMaxAge: TimeInterval
    /// The time now, for the catalog's age (a test passes its own).
    public let clock: @Sendable () -> Date
    /// Where `all_feeds.sqlite` comes from when following some feeds (``FollowedFeeds/only(_:)``)
    /// in publication format 2. Following every feed, or in format 1, it is always the
    /// published one.
    public let catalog: CatalogSource
    /// The publisher's public keys this client pins (`rss-pull --trust`): when any is given,
    /// the root and every pointer must carry a good signature by one of them, or the sync
    /// refuses it and keeps the files held (docs/client-contract.md, signed publications).
    /// Two keys while the publisher rotates. Empty: no check (an unsigned publication works).
    public let trustedKeys: [TrustedKey]

    /// Where the local `all_feeds.sqlite` comes from.
    public enum CatalogSource: String, Sendable, Equatable, CaseIterable {
        /// Written by the client from the followed feeds' pointers (their `about`): only the
        /// followed feeds' rows, in the published catalog's tables, so an app's queries work as
        /// on the published one; never a download of the whole catalog (issue 51: 226 MB at a
        /// million feeds, to show 50 titles). Falls back to ``published`` for a publisher whose
        /// pointers carry no `about` (before issue 51). The default when following some feeds.
        case followed
        /// The published catalog, downloaded whole when needed (``catalogMaxAge``): for an app
        /// that lets its user browse every feed.
        case published
    }

    /// Feed schema versions this client reads: a rise only ever adds tables and columns, so
    /// the client knows which rises it can still read.
    public static let knownFeedSchemaVersions = 1...2
    public static let knownCatalogSchemaVersions = 1...2

    public static let defaultCatalogMaxAge: TimeInterval = 86_400

    /// The most bytes `manifest.json` may have (decompressed): a format-2 root is about 1 KB
    /// at any catalog size; a format-1 manifest lists every feed, ~250 bytes each. A server
    /// that sends more is not read further (a phone's memory is not a server's to fill).
    public static let manifestByteLimit = 16 << 20
    /// The most bytes a feed pointer (`feed_<id>.json`) may have: a few entries and an `about`.
    public static let pointerByteLimit = 1 << 20
    /// Every other file (a snapshot, a delta, a catalog page) is capped at the size its entry
    /// states: not one byte more is read.

    public init(
        baseURL: URL, folder: URL, feeds: FollowedFeeds = .all, transport: any ClientTransport = DefaultTransport.make(),
        catalogMaxAge: TimeInterval = defaultCatalogMaxAge, clock: @escaping @Sendable () -> Date = { Date() },
        catalog: CatalogSource = .followed, trustedKeys: [TrustedKey] = []
    ) {
        // Names are resolved against the base as a directory, whether or not it ends with "/".
        self.baseURL = baseURL.absoluteString.hasSuffix("/") ? baseURL : baseURL.appendingPathComponent("")
        self.folder = folder
        self.feeds = feeds
        self.transport = transport
        self.catalogMaxAge = catalogMaxAge
        self.clock = clock
        self.catalog = catalog
        self.trustedKeys = trustedKeys
    }

    /// Brings the folder to the manifest's generation, as far as it can. Throws only when
    /// nothing could be done (the folder is unusable or busy, the manifest cannot be read or
    /// is of an unknown format); a file (or a pointer) that could not be synced is a ``SyncReport/problems``
    /// entry, and the others are synced regardless.
    public func run() async throws(ClientError) -> SyncReport {
        try await run(deadline: nil, progress: nil)
    }

    /// A sync that stops cleanly at `deadline` (from now) if it has not ended by then (a
    /// mobile OS's background task budget, `rss-pull --deadline`), telling `progress` of each
    /// step. Stopped, by the deadline or by cancelling the task that runs it, it returns a
    /// report whose outcome says so and whose ``SyncReport/left`` names what it did not get
    /// to: every file brought up to date before is in place and recorded, none is half
    /// written, and the next sync goes on without downloading them again. The request in
    /// flight at the deadline is cut within libcurl's next progress check (under a second).
    public func run(deadline: Duration?, progress: (@Sendable (SyncProgress) -> Void)?) async throws(ClientError) -> SyncReport {
        guard let deadline else {
            return try await SyncSession(self, progress: progress).run()
        }
        let end = ContinuousClock.now + deadline
        let result = await withTaskGroup(of: Result<SyncReport, ClientError>?.self) { group in
            group.addTask {
                do throws(ClientError) {
                    return .success(try await SyncSession(self, deadline: end, progress: progress).run())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(until: end, clock: .continuous)
                return nil
            }
            var outcome: Result<SyncReport, ClientError>?
            while let next = await group.next() {
                // The first to end ends the other: the sync stops at the deadline, the timer
                // once the sync is done.
                group.cancelAll()
                if let next { outcome = next }
            }
            return outcome
        }
        guard let result else { throw .cancelled(url: baseURL) }
        return try result.get()
    }

    /// Starts a sync in its own task: its progress as a stream for a UI, its report, and
    /// cancel (see ``SyncRun``).
    public func start(deadline: Duration? = nil) -> SyncRun {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncProgress.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task<SyncReport, any Error> {
            defer { continuation.finish() }
            return try await run(deadline: deadline) { continuation.yield($0) }
        }
        return SyncRun(progress: stream, task: task)
    }
}

/// The client's version: Feedmill's (`FeedmillVersion.current`, which the client cannot import;
/// a command test keeps the two equal).
public enum FeedmillClientVersion {
    public static let current = "0.1.0"
}
