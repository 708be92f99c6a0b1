import FeedBasics
import FeedModel
import FeedStorage
import FeedPipeline
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

    public init() {}
}

/// What a publication did.
public struct PublishReport: Sendable, Equatable {
    public var generation: Int
    public var feedsWritten: Int
    public var feedsUnchanged: Int
    public var deltasWritten: Int
    public var filesWritten: Int
    public var bytesWritten: Int
    public var filesRemoved: Int
    public var duration: Double
    /// Feeds whose database could not be read: each keeps its last good snapshot.
    public var failures: [PublishFailure] = []
    /// Nothing changed: nothing was written at all.
    public var unchanged: Bool { filesWritten == 0 }
    /// 0, or 1 when some feeds could not be published (the others were).
    public var exitCode: Int32 { failures.isEmpty ? ExitStatus.success : ExitStatus.someFeedsFailed }
}

/// One feed that could not be published this time, and why.
public struct PublishFailure: Sendable, Equatable {
    public var feedID: Int64
    public var message: String
}

/// The publish step: client copies of the catalog and of each feed database, deltas, the
/// aggregated Atom feed and page, and the manifest last. Readers see the previous
/// publication or this one, never a mix: files are new names written in full, synced and
/// renamed; the manifest is swapped in last; files of the previous publication are removed
/// only by the next one.
public struct PublishRun: Sendable {
    public let pipeline: PipelineConfiguration
    public let configuration: PublishConfiguration
    public let catalog: Catalog

    public init(pipeline: PipelineConfiguration, configuration: PublishConfiguration, catalog: Catalog) {
        self.pipeline = pipeline
        self.configuration = configuration
        self.catalog = catalog
    }

    public static let manifestName = "manifest.json"

    /// Refuses an output directory that is, contains or lies inside the data directory
    /// (symbolic links resolved): checked before anything is opened or written.
    public static func refuseOverlap(output: String, data: String) throws(PipelineError) {
        try DirectoryOverlap.refuse(output: output, data: data)
    }

    /// - Parameter only: publish just these feeds (and the catalog); others are carried over.
    public func run(only: [Int64]? = nil) throws(PipelineError) -> PublishReport {
        let started = ContinuousClock.now
        let out = configuration.outputDirectory
        try DirectoryOverlap.refuse(output: out, data: pipeline.dataDirectory)
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw .dataDirectory(path: out, reason: error.localizedDescription)
        }
        let lock = try RunLock(lockingDirectory: out)
        defer { withExtendedLifetime(lock) {} }
        let previous = try readManifest()
        var report = PublishReport(
            generation: previous.generation, feedsWritten: 0, feedsUnchanged: 0, deltasWritten: 0, filesWritten: 0,
            bytesWritten: 0, filesRemoved: 0, duration: 0)
        let feeds: [CatalogFeed]
        do {
            feeds = try catalog.feeds()
        } catch {
            throw .storage(error)
        }
        if let only { try PipelineError.refuseUnknown(only, known: feeds.map(\.feedID)) }
        try StableNames.refuseForeign(
            names: feeds.map { FeedDatabase.fileName(feedID: $0.feedID) } + [Catalog.fileName], previous: previous, in: out)
        var next = Manifest(generation: previous.generation)
        let previousByID = Dictionary(previous.feeds.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
        let selected = only.map(Set.init)
        for feed in feeds {
            let source = pipeline.feedDatabasePath(feed.feedID)
            let earlier = previousByID[feed.feedID]
            let condition = FeedDatabaseFile.condition(of: source)
            guard condition != .missing else { continue }
            if let selected, !selected.contains(feed.feedID) {
                if let earlier { next.feeds.append(earlier) }
                continue
            }
            do throws(PipelineError) {
                switch condition {
                case .unusable(let reason): throw .storage(StorageError(path: source, message: reason, kind: .damaged))
                case .empty: throw .storage(StorageError(path: source, message: "is empty (0 bytes)", kind: .damaged))
                default: break
                }
                // Clients must never get one feed's items under another's feedid.
                if let mismatch = FeedDatabase.mismatch(at: source, for: feed.identity) { throw .storage(mismatch) }
                var published = try publishFeed(feed, source: source, earlier: earlier, report: &report)
                published.lastUpdate = feed.lastUpdate
                next.feeds.append(published)
            } catch {
                // One bad database must not stop the others: this feed keeps its last good
                // snapshot (if it still exists) and the run says which feed and why.
                report.failures.append(PublishFailure(feedID: feed.feedID, message: error.description))
                if let earlier, FileManager.default.fileExists(atPath: out + "/" + earlier.file) { next.feeds.append(earlier) }
            }
        }
        next.catalog = try publishCatalog(previous: previous.catalog, report: &report)
        // A manifest that does not yet own every stable name (one written before stable names
        // existed) is rewritten, so the next run knows the names are the publisher's.
        let unowned = !Set(StableNames.names(of: next)).isSubset(of: previous.stableFiles ?? [])
        let changed = report.filesWritten > 0 || next.feeds.map(\.feedID) != previous.feeds.map(\.feedID) || unowned
        if changed || previous.atom == nil {
            try writeAggregates(feeds: feeds, manifest: &next, report: &report)
            next.generation = previous.generation + 1
            let retirement = PublishedFiles.retire(previous: previous, next: next, in: out)
            next.retiredFiles = retirement.retired.isEmpty ? nil : retirement.retired
            // Names of feeds no longer published stay listed until their removal is done.
            let stable = Set(StableNames.names(of: next)).union(
                (previous.stableFiles ?? []).filter { FileManager.default.fileExists(atPath: out + "/" + $0) })
            next.stableFiles = stable.sorted()
            try write(next, report: &report)
            report.generation = next.generation
            report.filesRemoved = PublishedFiles.remove(retirement.removeNow, in: out)
        } else {
            next = previous
        }
        report.filesWritten += try StableNames.sync(next, in: out)
        let elapsed = ContinuousClock.now - started
        report.duration = elapsed.inSeconds
        return report
    }

    private func publishFeed(
        _ feed: CatalogFeed, source: String, earlier: PublishedFeed?, report: inout PublishReport
    ) throws(PipelineError) -> PublishedFeed {
        let out = configuration.outputDirectory
        let fingerprint: String
        do {
            fingerprint = try Snapshot.feedFingerprint(source)
        } catch {
            throw .storage(error)
        }
        if let earlier, earlier.sourceFingerprint == fingerprint, !configuration.full,
            FileManager.default.fileExists(atPath: out + "/" + earlier.file)
        {
            report.feedsUnchanged += 1
            return earlier
        }
        let version = (earlier?.version ?? 0) + 1
        let name = FeedDatabase.fileName(feedID: feed.feedID)
        let file = "feed_\(feed.feedID).v\(version).sqlite"
        do {
            let snapshot = try Snapshot.writeFeed(from: source, to: out + "/" + file)
            report.feedsWritten += 1
            report.filesWritten += 1
            report.bytesWritten += snapshot.size
            // Earlier versions still on disk, newest first, each with a delta to this one.
            var history: [PublishedVersion] = []
            if let earlier {
                history = [PublishedVersion(version: earlier.version, file: earlier.file, sha256: earlier.sha256)] + earlier.history
                history = Array(history.prefix(configuration.retainedVersions))
            }
            var deltas: [PublishedDelta] = []
            if !history.isEmpty {
                let current = try Snapshot.items(ofSnapshot: snapshot.path)
                for old in history where FileManager.default.fileExists(atPath: out + "/" + old.file) {
                    let items = try Snapshot.items(ofSnapshot: out + "/" + old.file)
                    let delta = Delta(feedID: feed.feedID, from: old.version, to: version, old: items, new: current)
                    let deltaFile = "feed_\(feed.feedID).v\(old.version)-v\(version).delta.json"
                    let bytes = try deltaBytes(delta, path: out + "/" + deltaFile)
                    try StorageError.files { () throws(FileError) in try DurableFiles.write(bytes, to: out + "/" + deltaFile) }
                    deltas.append(PublishedDelta(fromVersion: old.version, file: deltaFile, sha256: SHA256.hexDigest(bytes), size: bytes.count))
                    report.deltasWritten += 1
                    report.filesWritten += 1
                    report.bytesWritten += bytes.count
                }
            }
            return PublishedFeed(
                feedID: feed.feedID, name: name, file: file, version: version, sha256: snapshot.sha256, size: snapshot.size,
                itemCount: snapshot.rowCount, lastUpdate: feed.lastUpdate, schemaVersion: Snapshot.feedSchemaVersion,
                sourceFingerprint: fingerprint, deltas: deltas, history: history)
        } catch {
            throw .storage(error)
        }
    }

    private func deltaBytes(_ delta: Delta, path: String) throws(StorageError) -> [UInt8] {
        do {
            return try delta.encoded()
        } catch {
            throw StorageError(path: path, message: "encoding delta failed: \(error)")
        }
    }

    private func publishCatalog(previous: PublishedCatalog?, report: inout PublishReport) throws(PipelineError) -> PublishedCatalog {
        let out = configuration.outputDirectory
        let fingerprint: String
        do {
            fingerprint = try Snapshot.catalogFingerprint(catalog.readLocation)
        } catch {
            throw .storage(error)
        }
        if let previous, previous.sourceFingerprint == fingerprint, !configuration.full,
            FileManager.default.fileExists(atPath: out + "/" + previous.file)
        {
            return previous
        }
        let version = (previous?.version ?? 0) + 1
        let file = "all_feeds.v\(version).sqlite"
        do {
            let snapshot = try Snapshot.writeCatalog(from: catalog.readLocation, to: out + "/" + file)
            report.filesWritten += 1
            report.bytesWritten += snapshot.size
            return PublishedCatalog(
                name: Catalog.fileName, file: file, version: version, sha256: snapshot.sha256, size: snapshot.size,
                feedCount: snapshot.rowCount, schemaVersion: Snapshot.catalogSchemaVersion, sourceFingerprint: fingerprint)
        } catch {
            throw .storage(error)
        }
    }

    private func writeAggregates(feeds: [CatalogFeed], manifest: inout Manifest, report: inout PublishReport) throws(PipelineError) {
        let out = configuration.outputDirectory
        let byID = Dictionary(feeds.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
        let sources = manifest.feeds.compactMap { published in byID[published.feedID].map { ($0, out + "/" + published.file) } }
        let entries: [AggregateEntry]
        do {
            entries = try AggregateEntry.newest(configuration.aggregateEntries, feeds: sources)
        } catch {
            throw .storage(StorageError(path: out, message: "reading entries for atom.xml failed: \(error)"))
        }
        let counts = Dictionary(manifest.feeds.map { ($0.feedID, $0.itemCount) }, uniquingKeysWith: { first, _ in first })
        let pages = [
            ("atom.xml", AtomWriter.document(entries, title: configuration.title, siteURL: configuration.siteURL)),
            ("index.html", IndexPage.document(entries, feeds: feeds, itemCounts: counts, title: configuration.title)),
        ]
        for (name, text) in pages {
            let bytes = Array(text.utf8)
            if FileManager.default.contents(atPath: out + "/" + name).map([UInt8].init) != bytes {
                do {
                    try DurableFiles.write(bytes, to: out + "/" + name)
                } catch {
                    throw .storage(StorageError(error))
                }
                report.filesWritten += 1
                report.bytesWritten += bytes.count
            }
        }
        manifest.atom = "atom.xml"
        manifest.index = "index.html"
    }

    private func write(_ manifest: Manifest, report: inout PublishReport) throws(PipelineError) {
        let path = configuration.outputDirectory + "/" + Self.manifestName
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let bytes = [UInt8](try encoder.encode(manifest)) + [0x0A]
            try StorageError.files { () throws(FileError) in try DurableFiles.write(bytes, to: path) }
            report.filesWritten += 1
            report.bytesWritten += bytes.count
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            throw .storage(StorageError(path: path, message: "encoding the manifest failed: \(error)"))
        }
    }

    private func readManifest() throws(PipelineError) -> Manifest {
        let path = configuration.outputDirectory + "/" + Self.manifestName
        guard let data = FileManager.default.contents(atPath: path) else { return Manifest() }
        do {
            return try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw .storage(StorageError(path: path, message: "unreadable manifest: \(error)"))
        }
    }
}
