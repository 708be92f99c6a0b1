/// Where a running sync is, for an app's progress view or `rss-pull`'s bar: files (the followed
/// feeds) done of the total once the sync knows it, and bytes received so far.
public struct SyncProgress: Sendable, Equatable {
    /// Followed feeds brought up to date, found current, refused or skipped so far.
    public var filesDone: Int
    /// Followed feeds this sync looks at; 0 until the manifest (and, following every feed, the
    /// catalog) says how many.
    public var filesTotal: Int
    /// Body bytes of the requests finished so far (manifest, pointers, files, deltas): a large
    /// file counts when it has arrived, not while it arrives.
    public var bytesReceived: Int
    public var requests: Int
    /// The local name of the file just done, when this step is one.
    public var file: String?

    public init(filesDone: Int, filesTotal: Int, bytesReceived: Int, requests: Int, file: String? = nil) {
        self.filesDone = filesDone
        self.filesTotal = filesTotal
        self.bytesReceived = bytesReceived
        self.requests = requests
        self.file = file
    }

    /// Done of total, 0 to 1; nil while the total is not known.
    public var fraction: Double? {
        filesTotal > 0 ? min(1, Double(filesDone) / Double(filesTotal)) : nil
    }
}

/// A sync started with ``PublicationSync/start(deadline:)``: its progress as an async
/// sequence (for a UI), its report when it ends, and a cancel button. Cancelling stops the
/// sync within the transfer's next progress check (well under a second): the report then says
/// ``SyncReport/Outcome/cancelled`` and what was left, and the folder is consistent.
public struct SyncRun: Sendable {
    /// Every step, newest last; finishes when the sync ends. Buffers only the newest step: a
    /// UI that reads slowly sees the latest, not a backlog.
    public let progress: AsyncStream<SyncProgress>
    let task: Task<SyncReport, any Error>

    /// The sync's report, once it ended (it throws what ``PublicationSync/run()`` throws).
    public var report: SyncReport {
        get async throws { try await task.value }
    }

    public func cancel() { task.cancel() }
}
