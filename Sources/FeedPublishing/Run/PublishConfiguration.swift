import Foundation

/// How to publish.
public struct PublishConfiguration: Sendable {
    public var outputDirectory = "./publish"
    /// Earlier versions of each feed kept, with a delta from each to the current one.
    public var retainedVersions = 3
    /// Rewrite every database even if unchanged (the baseline the benchmark compares with).
    public var full = false
    /// Where the publish directory is served, for `atom.xml`'s self link and id.
    public var siteURL: String?
    public var title = "Feedmill"
    /// Entries in `atom.xml` and `index.html`.
    public var aggregateEntries = 50
    /// Seconds since the epoch: entries dated too far past it are left out of the pages.
    /// `--now` and `SOURCE_DATE_EPOCH` replace it.
    public var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    public init() {}

    /// Pins every reading of the current time to `now`.
    public mutating func fixClock(at now: Int64) {
        clock = { now }
    }
}
