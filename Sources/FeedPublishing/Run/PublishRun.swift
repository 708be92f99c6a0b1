import FeedBasics
import FeedModel
import FeedStorage
import Foundation

/// The publish step: client copies of the catalog and of each feed database, deltas, the
/// aggregated Atom feed and page, and the manifest last. Readers see the previous
/// publication or this one, never a mix: files are new names put in whole; the manifest is
/// put last; files of the previous publication are removed only by the next one. Durability
/// is paid once per publication, not per file: the files are written without a flush each,
/// made durable together (``PublicationTarget/makeDurable()``), and only then is the manifest
/// put, so that a power cut never leaves a manifest naming a file that is not whole. A
/// publication that fails (a full disk, no inodes left) removes the files it wrote before it
/// stops, so that its leftovers cannot keep the disk full.
///
/// Everything it does to the publication goes through a ``PublicationTarget``: the publish
/// directory (``DirectoryTarget``) unless another is given.
public struct PublishRun: Sendable {
    public let data: DataDirectory
    public let configuration: PublishConfiguration
    public let catalog: Catalog
    public let target: any PublicationTarget

    /// - Parameter target: where to publish; by default the directory
    ///   `configuration.outputDirectory`, which must lie outside `data`.
    public init(data: DataDirectory, configuration: PublishConfiguration, catalog: Catalog, target: (any PublicationTarget)? = nil) {
        self.data = data
        self.configuration = configuration
        self.catalog = catalog
        self.target = target ?? DirectoryTarget(path: configuration.outputDirectory, awayFrom: data.path)
    }

    public static let manifestName = ManifestStore.manifestName

    /// The catalog to publish, read only, after the data directory's checks (no catalog, a
    /// lost one); the data directory is not locked, as publishing runs beside updates.
    public static func openCatalog(_ data: DataDirectory) throws(PublishError) -> Catalog {
        try rethrowing(try data.openCatalogForReading(), as: { (error: DataDirectoryError) in
            if case .storage(let storage) = error { return PublishError.storage(storage) }
            return PublishError.dataDirectory(error)
        })
    }

    /// - Parameters:
    ///   - only: publish just these feeds (and the catalog); others are carried over.
    ///   - recover: when the manifest is missing or unusable, adopt again the files whose
    ///     bytes match the digests of the publisher's record (``ManifestStore``), and publish.
    public func run(only: [Int64]? = nil, recover: Bool = false) throws(PublishError) -> PublishReport {
        let started = ContinuousClock.now
        let lock = try target.lock()
        defer { withExtendedLifetime(lock) {} }
        let store = ManifestStore(target: target)
        var publication = Publication(start: try store.start(recover: recover), target: target)
        let feeds = try selectFeeds(only: only, previous: publication.previous)
        do throws(PublishError) {
            publication.next.feeds = publishFeeds(feeds, only: only, &publication)
            publication.next.catalog = try publishCatalog(&publication)
            if publication.changedAnything(recovering: recover) || publication.previous.atom == nil {
                try writeAggregates(feeds: feeds, &publication)
                let removeNow = try writeManifest(store, &publication)
                retireOldVersions(removeNow, &publication)
            } else {
                publication.next = publication.previous
            }
        } catch {
            publication.written.removeAll()
            throw error
        }
        publication.report.filesWritten += try StableNames.sync(publication.next, in: target)
        publication.report.duration = (ContinuousClock.now - started).inSeconds
        return publication.report
    }

    /// The catalog's feeds, after refusing what would stop the publication before anything is
    /// written: `--feed` ids the catalog lacks, and files at stable names the publisher did
    /// not write.
    private func selectFeeds(only: [Int64]?, previous: Manifest) throws(PublishError) -> [CatalogFeed] {
        let feeds = try rethrowing(try catalog.feeds(), as: PublishError.storage)
        if let only, let unknown = UnknownFeeds.among(only, known: feeds.map(\.feedID)) { throw .unknownFeeds(unknown.feedIDs) }
        try StableNames.refuseForeign(
            names: feeds.map { PublishedName.feed($0.feedID).fileName } + [PublishedName.catalog.fileName], previous: previous, in: target)
        return feeds
    }

    /// The new manifest, then the publisher's record of it. Before it, the files the previous
    /// publication named and this one does not are planned for retirement: those a client may
    /// still be downloading are listed as retired and kept one more round. Returns the rest,
    /// to be removed now that the manifest no longer names them.
    private func writeManifest(_ store: ManifestStore, _ publication: inout Publication) throws(PublishError) -> [String] {
        let previous = publication.previous
        guard let generation = Manifest.count(after: previous.generation) else {
            throw .outputDirectory(path: target.location, reason: Self.countedOut("\(Self.manifestName)'s generation"))
        }
        publication.next.generation = generation
        let retirement = try PublishedFiles.retire(previous: previous, next: publication.next, in: target)
        publication.next.retiredFiles = retirement.retired.isEmpty ? nil : retirement.retired
        // Names of feeds no longer published stay listed until their removal is done.
        let stable = Set(StableNames.names(of: publication.next)).union((previous.stableFiles ?? []).filter { target.serves($0) })
        publication.next.stableFiles = stable.sorted()
        let bytes = try store.encoded(publication.next)
        // Every file the manifest names is durable before the manifest is.
        try target.makeDurable()
        try store.writeManifest(bytes)
        publication.written.keepAll()
        if let problem = store.writeRecord(bytes) { publication.report.warnings.append(problem) }
        publication.report.filesWritten += 2
        publication.report.bytesWritten += 2 * bytes.count
        publication.report.generation = publication.next.generation
        return retirement.removeNow
    }

    /// The version after `earlier`'s and above `floor` (the highest a file there has that the
    /// publication cannot vouch for, ``ManifestStore``), for the snapshot called `name`.
    func nextVersion(after earlier: Int?, floor: Int?, of name: PublishedName) throws(PublishError) -> Int {
        guard let version = Manifest.count(after: Swift.max(earlier ?? 0, floor ?? 0)) else {
            throw .storage(StorageError(path: target.location + "/" + name.fileName, message: Self.countedOut("its version")))
        }
        return version
    }

    /// Why a count cannot go up: it is at the last number a client reads exactly from JSON.
    static func countedOut(_ what: String) -> String {
        "\(what) has reached \(Manifest.largestCount), the last number a client reads exactly; publish into a new directory"
    }

    /// Removes what the new manifest retired (the publisher's own plain files only).
    private func retireOldVersions(_ names: [String], _ publication: inout Publication) {
        publication.report.filesRemoved = PublishedFiles.remove(names, in: target)
    }
}

/// One publication in progress: where it started, what it has written, what it will name.
struct Publication {
    let start: ManifestStore.Start
    /// Until the manifest names them, the files this publication writes are its own to remove.
    let written: WrittenFiles
    var next: Manifest
    var report: PublishReport
    /// Content digests computed for versions carried over from a manifest written before
    /// digests existed: the new manifest must be written to give them.
    var digestsAdded = 0

    init(start: ManifestStore.Start, target: any PublicationTarget) {
        self.start = start
        written = WrittenFiles(in: target, keeping: start.manifest.files.union(start.leftAlone))
        next = Manifest(generation: start.manifest.generation)
        report = PublishReport(startingAt: start.manifest.generation)
        report.recovery = start.recovery
    }

    var previous: Manifest { start.manifest }

    /// Whether a new manifest is due: files written, the feeds named changed, a stable name
    /// not yet owned by the manifest (one written before stable names existed, or a recovered
    /// one), a recovery, or a manifest of an earlier format (without `format_version` or
    /// content digests) to bring up to date.
    func changedAnything(recovering: Bool) -> Bool {
        let unowned = !Set(StableNames.names(of: next)).isSubset(of: previous.stableFiles ?? [])
        let outdated = previous.formatVersion != Manifest.currentFormatVersion || previous.format != Manifest.formatName || digestsAdded > 0
        return report.filesWritten > 0 || next.feeds.map(\.feedID) != previous.feeds.map(\.feedID) || unowned || recovering || outdated
    }
}
