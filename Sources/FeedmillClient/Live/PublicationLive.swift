import Foundation

/// Keeps a folder in step with a publication while an app is open: a file sync first, then
/// `rss-serve`'s event stream (`/events`, docs/client-contract.md "Live updates") for the
/// followed feeds, each `patch` applied to the feed's file in one transaction and checked by
/// its content digest, so a new item is in the app's database a moment after it is published,
/// without a sync. Whatever the stream cannot give is a file sync (``PublicationSync``) instead:
/// a `resync`, a patch from a version the folder does not hold, a digest that does not match, an
/// event that cannot be read, or no server (a file sync at most every ``fallbackInterval``
/// while the stream cannot be reached). A dropped connection is opened again after a backoff
/// with jitter, with `Last-Event-ID`, so nothing published meanwhile is missed.
///
/// Iterate ``updates()`` to run it; stop iterating (or cancel the task) to stop: the folder is
/// consistent at any point, as with a sync.
public struct PublicationLive: Sendable {
    /// The file sync it starts with and falls back to: its folder, followed feeds, transport,
    /// trusted keys. With trusted keys, patches are not applied (they are not signed): every
    /// change is a file sync of signed pointers, the stream only says when.
    public let sync: PublicationSync
    /// `rss-serve`'s base URL (`/events` is appended). Often the publication's own.
    public let serverURL: URL
    public let streams: any EventStreamTransport
    /// The first wait after a connection failed; doubles up to ``maximumBackoff``, each wait
    /// jittered (between half and all of it) so readers dropped together do not come back
    /// together.
    public let initialBackoff: Duration
    public let maximumBackoff: Duration
    /// While the stream cannot be reached, a file sync at most this often (default 5 minutes,
    /// ``SyncPolicy/inUseInterval``'s default).
    public let fallbackInterval: Duration
    let random: @Sendable () -> Double

    public init(
        sync: PublicationSync, serverURL: URL? = nil, streams: any EventStreamTransport = DefaultEventStreams.make(),
        initialBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(60), fallbackInterval: Duration = .seconds(300),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.sync = sync
        let base = serverURL ?? sync.baseURL
        self.serverURL = base.absoluteString.hasSuffix("/") ? base : base.appendingPathComponent("")
        self.streams = streams
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.fallbackInterval = fallbackInterval
        self.random = random
    }

    /// The stream's URL for the followed feeds.
    public var eventsURL: URL {
        var url = serverURL.appendingPathComponent("events")
        if case .only(let ids) = sync.feeds, let withQuery = URL(string: url.absoluteString + "?feeds=" + ids.sorted().map(String.init).joined(separator: ",")) {
            url = withQuery
        }
        return url
    }

    /// What happens, as it happens: for an app's status line, or `rss-pull --live`'s output.
    /// Runs until the consumer stops iterating. Keeps the newest 256 updates a slow consumer
    /// has not read.
    public func updates() -> AsyncStream<LiveUpdate> {
        AsyncStream(bufferingPolicy: .bufferingNewest(256)) { continuation in
            let task = Task {
                var loop = LiveLoop(live: self, tell: { continuation.yield($0) })
                await loop.run()
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// One thing that happened in a live session.
public enum LiveUpdate: Sendable, Equatable {
    /// A file sync ran, and why (`start`, a `resync`, a patch that could not be applied, no
    /// server).
    case synced(SyncReport, reason: String)
    /// A file sync could not run at all (the folder busy or unusable, the manifest unreadable).
    case syncFailed(ClientError, reason: String)
    /// The stream is open (its first bytes came), resuming after `lastEventID` if given.
    case connected(lastEventID: Int?)
    /// A patch was applied: the feed's file (`feed_<id>.sqlite`) is at `version`, of the root
    /// `generation`.
    case patched(feedID: Int64, file: String, version: Int, generation: Int)
    /// The stream ended or could not be opened; the next try in `retryIn`.
    case disconnected(reason: String, retryIn: Duration)
}
