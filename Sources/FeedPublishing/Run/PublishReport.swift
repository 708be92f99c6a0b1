/// What a publication did.
public struct PublishReport: Sendable, Equatable {
    /// The shard's generation (for the whole feed list, the root's too).
    public var generation: Int
    /// The root's generation after this publication's commit; `nil` when nothing was committed.
    public var rootGeneration: Int?
    /// The publication id (the first 16 hex digits of the record's SHA-256), when one was committed.
    public var publication: String?
    /// Pointers written (a feed that did not change keeps its pointer's bytes).
    public var pointersWritten = 0
    public var feedsWritten: Int
    public var feedsUnchanged: Int
    public var deltasWritten: Int
    public var filesWritten: Int
    public var bytesWritten: Int
    public var filesRemoved: Int
    /// Snapshots read for `atom.xml` and `index.html`: the changed ones, when the record kept
    /// the newest entries (``NewestEntriesKept``); every one otherwise.
    public var pageSnapshotsRead = 0
    /// Catalog records (a feed's row) read: every feed's, unless the change log could be
    /// followed (then the changed feeds' and those the pages name).
    public var catalogRecordsRead = 0
    public var duration: Double
    /// Feeds whose database could not be read: each keeps its last good snapshot.
    public var failures: [PublishFailure] = []
    /// What was published otherwise than the data says, or left out, and why: a catalog value
    /// of the wrong type published as NULL, a delta not written from a damaged old snapshot,
    /// a feed's entries left out of the pages.
    public var warnings: [String] = []
    /// `--recover`: what was adopted again, and what was left alone.
    public var recovery: [String] = []
    /// Nothing changed: nothing was written at all.
    public var unchanged: Bool { filesWritten == 0 }
    /// Every feed published as its data says: none failed, nothing published otherwise.
    public var complete: Bool { failures.isEmpty && warnings.isEmpty }

    /// A report of nothing done yet, from the previous publication's generation.
    init(startingAt generation: Int) {
        self.generation = generation
        feedsWritten = 0
        feedsUnchanged = 0
        deltasWritten = 0
        filesWritten = 0
        bytesWritten = 0
        filesRemoved = 0
        duration = 0
    }
}

/// One feed that could not be published this time, and why.
public struct PublishFailure: Sendable, Equatable {
    public var feedID: Int64
    public var message: String
}
