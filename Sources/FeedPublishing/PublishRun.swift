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
    /// What was published otherwise than the data says, or left out, and why: a catalog value
    /// of the wrong type published as NULL, a delta not written from a damaged old snapshot,
    /// a feed's entries left out of the pages.
    public var warnings: [String] = []
    /// `--recover`: what was adopted again, and what was left alone.
    public var recovery: [String] = []
    /// Nothing changed: nothing was written at all.
    public var unchanged: Bool { filesWritten == 0 }
    /// 0, or 1 when some feeds could not be published (the others were) or something was
    /// published otherwise than the data says.
    public var exitCode: Int32 { failures.isEmpty && warnings.isEmpty ? ExitStatus.success : ExitStatus.someFeedsFailed }
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
/// only by the next one. A publication that fails (a full disk, no inodes left) removes the
/// files it wrote before it stops, so that its leftovers cannot keep the disk full.
public struct PublishRun: Sendable {
    public let pipeline: PipelineConfiguration
    public let configuration: PublishConfiguration
    public let catalog: Catalog

    public init(pipeline: PipelineConfiguration, configuration: PublishConfiguration, catalog: Catalog) {
        self.pipeline = pipeline
        self.configuration = configuration
        self.catalog = catalog
    }

    public static let manifestName = ManifestStore.manifestName

    /// Refuses an output directory that is, contains or lies inside the data directory
    /// (symbolic links resolved): checked before anything is opened or written.
    public static func refuseOverlap(output: String, data: String) throws(PipelineError) {
        try DirectoryOverlap.refuse(output: output, data: data)
    }

    /// - Parameters:
    ///   - only: publish just these feeds (and the catalog); others are carried over.
    ///   - recover: when the manifest is missing or unusable, adopt again the files whose
    ///     bytes match the digests of the publisher's record (``ManifestStore``), and publish.
    public func run(only: [Int64]? = nil, recover: Bool = false) throws(PipelineError) -> PublishReport {
        let started = ContinuousClock.now
        let out = configuration.outputDirectory
        try DirectoryOverlap.refuse(output: out, data: pipeline.dataDirectory)
        if let problem = PipelineError.directoryProblem(out, create: true) { throw .outputDirectory(path: out, reason: problem) }
        let lock = try RunLock(lockingDirectory: out)
        defer { withExtendedLifetime(lock) {} }
        let store = ManifestStore(directory: out)
        let start = try store.start(recover: recover)
        let previous = start.manifest
        var report = PublishReport(
            generation: previous.generation, feedsWritten: 0, feedsUnchanged: 0, deltasWritten: 0, filesWritten: 0,
            bytesWritten: 0, filesRemoved: 0, duration: 0)
        report.recovery = start.recovery
        let feeds: [CatalogFeed]
        do {
            feeds = try catalog.feeds()
        } catch {
            throw .storage(error)
        }
        if let only { try PipelineError.refuseUnknown(only, known: feeds.map(\.feedID)) }
        try StableNames.refuseForeign(
            names: feeds.map { FeedDatabase.fileName(feedID: $0.feedID) } + [Catalog.fileName], previous: previous, in: out)
        // Until the manifest names them, the files this publication writes are its own to remove.
        let written = WrittenFiles(directory: out, keeping: previous.files.union(start.leftAlone))
        var next = Manifest(generation: previous.generation)
        do throws(PipelineError) {
            next.feeds = publishFeeds(feeds, previous: previous, only: only, floors: start.versionFloors, written: written, report: &report)
            next.catalog = try publishCatalog(previous: previous.catalog, floor: start.versionFloors["all_feeds"], written: written, report: &report)
            // A manifest that does not yet own every stable name (one written before stable names
            // existed, or a recovered one) is rewritten, so the next run knows the names are the publisher's.
            let unowned = !Set(StableNames.names(of: next)).isSubset(of: previous.stableFiles ?? [])
            let changed = report.filesWritten > 0 || next.feeds.map(\.feedID) != previous.feeds.map(\.feedID) || unowned || recover
            if changed || previous.atom == nil {
                try writeAggregates(feeds: feeds, manifest: &next, report: &report)
                next.generation = previous.generation + 1
                let retirement = PublishedFiles.retire(previous: previous, next: next, in: out)
                next.retiredFiles = retirement.retired.isEmpty ? nil : retirement.retired
                // Names of feeds no longer published stay listed until their removal is done.
                let stable = Set(StableNames.names(of: next)).union(
                    (previous.stableFiles ?? []).filter { FileManager.default.fileExists(atPath: out + "/" + $0) })
                next.stableFiles = stable.sorted()
                let bytes = try store.encoded(next)
                try store.writeManifest(bytes)
                written.keepAll()
                if let problem = store.writeRecord(bytes) { report.warnings.append(problem) }
                report.filesWritten += 2
                report.bytesWritten += 2 * bytes.count
                report.generation = next.generation
                report.filesRemoved = PublishedFiles.remove(retirement.removeNow, in: out)
            } else {
                next = previous
            }
        } catch {
            written.removeAll()
            throw error
        }
        report.filesWritten += try StableNames.sync(next, in: out)
        let elapsed = ContinuousClock.now - started
        report.duration = elapsed.inSeconds
        return report
    }

    /// Each feed's snapshot, new or carried over. One bad database must not stop the others:
    /// a feed that cannot be published keeps its last good snapshot (if it still exists) and
    /// the report says which feed and why. A feed removed from the catalog while this runs
    /// (`rss-feeds remove` does not wait for a publication) is passed over without a word.
    private func publishFeeds(
        _ feeds: [CatalogFeed], previous: Manifest, only: [Int64]?, floors: [String: Int], written: WrittenFiles,
        report: inout PublishReport
    ) -> [PublishedFeed] {
        let out = configuration.outputDirectory
        let previousByID = Dictionary(previous.feeds.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
        let selected = only.map(Set.init)
        var published: [PublishedFeed] = []
        for feed in feeds {
            let source = pipeline.feedDatabasePath(feed.feedID)
            let earlier = previousByID[feed.feedID]
            let condition = FeedDatabaseFile.condition(of: source)
            guard condition != .missing else { continue }
            if let selected, !selected.contains(feed.feedID) {
                if let earlier { published.append(earlier) }
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
                var snapshot = try publishFeed(
                    feed, source: source, earlier: earlier, floor: floors["feed_\(feed.feedID)"], written: written, report: &report)
                snapshot.lastUpdate = feed.lastUpdate
                published.append(snapshot)
            } catch {
                if removedMeanwhile(feed.feedID) { continue }
                var message = error.description
                if case .storage(let storage) = error, storage.kind == .wrongValues {
                    message += "; rss-update --feed \(feed.feedID) repairs it"
                }
                report.failures.append(PublishFailure(feedID: feed.feedID, message: message))
                if let earlier, FileManager.default.fileExists(atPath: out + "/" + earlier.file) { published.append(earlier) }
            }
        }
        return published
    }

    /// The feed is no longer in the catalog (removed while this publication ran).
    private func removedMeanwhile(_ feedID: Int64) -> Bool {
        do throws(StorageError) {
            return try catalog.feed(id: feedID) == nil
        } catch {
            return false
        }
    }

    private func publishFeed(
        _ feed: CatalogFeed, source: String, earlier: PublishedFeed?, floor: Int?, written: WrittenFiles,
        report: inout PublishReport
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
        // Above any version a file here has that the publication cannot vouch for (``ManifestStore``).
        let version = max(earlier?.version ?? 0, floor ?? 0) + 1
        let name = FeedDatabase.fileName(feedID: feed.feedID)
        let file = "feed_\(feed.feedID).v\(version).sqlite"
        // What this feed writes goes again if the feed fails half-way (a delta cannot be written).
        let mark = written.mark()
        do {
            let snapshot = try Snapshot.writeFeed(from: source, to: out + "/" + file)
            written.add(file)
            // Earlier versions still on disk, newest first, each with a delta to this one.
            var history: [PublishedVersion] = []
            if let earlier {
                history = [PublishedVersion(version: earlier.version, file: earlier.file, sha256: earlier.sha256)] + earlier.history
                history = Array(history.prefix(configuration.retainedVersions))
            }
            var deltas: [PublishedDelta] = []
            var deltaBytesWritten = 0
            if !history.isEmpty {
                let current = try Snapshot.items(ofSnapshot: snapshot.path)
                for old in history where FileManager.default.fileExists(atPath: out + "/" + old.file) {
                    let items: [String: [SQLValue]]
                    do {
                        items = try Snapshot.items(ofSnapshot: out + "/" + old.file)
                    } catch {
                        // A client at that version downloads the snapshot instead.
                        report.warnings.append("feed \(feed.feedID): no delta from version \(old.version): \(error.description)")
                        continue
                    }
                    let delta = Delta(feedID: feed.feedID, from: old.version, to: version, old: items, new: current)
                    let deltaFile = "feed_\(feed.feedID).v\(old.version)-v\(version).delta.json"
                    let bytes = try deltaBytes(delta, path: out + "/" + deltaFile)
                    try StorageError.files { () throws(FileError) in try DurableFiles.write(bytes, to: out + "/" + deltaFile) }
                    written.add(deltaFile)
                    deltas.append(PublishedDelta(fromVersion: old.version, file: deltaFile, sha256: SHA256.hexDigest(bytes), size: bytes.count))
                    deltaBytesWritten += bytes.count
                }
            }
            report.feedsWritten += 1
            report.deltasWritten += deltas.count
            report.filesWritten += 1 + deltas.count
            report.bytesWritten += snapshot.size + deltaBytesWritten
            return PublishedFeed(
                feedID: feed.feedID, name: name, file: file, version: version, sha256: snapshot.sha256, size: snapshot.size,
                itemCount: snapshot.rowCount, lastUpdate: feed.lastUpdate, schemaVersion: Snapshot.feedSchemaVersion,
                sourceFingerprint: fingerprint, deltas: deltas, history: history)
        } catch {
            written.removeAll(since: mark)
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

    private func publishCatalog(
        previous: PublishedCatalog?, floor: Int?, written: WrittenFiles, report: inout PublishReport
    ) throws(PipelineError) -> PublishedCatalog {
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
        let version = max(previous?.version ?? 0, floor ?? 0) + 1
        let file = "all_feeds.v\(version).sqlite"
        do {
            let snapshot = try Snapshot.writeCatalog(from: catalog.readLocation, to: out + "/" + file)
            written.add(file)
            report.filesWritten += 1
            report.bytesWritten += snapshot.size
            report.warnings += snapshot.problems.map { "\(Catalog.fileName): \($0); rss-update repairs it in the catalog" }
            return PublishedCatalog(
                name: Catalog.fileName, file: file, version: version, sha256: snapshot.sha256, size: snapshot.size,
                feedCount: snapshot.rowCount, schemaVersion: Snapshot.catalogSchemaVersion, sourceFingerprint: fingerprint)
        } catch {
            throw .storage(error)
        }
    }

    /// `atom.xml` and `index.html`, from the newest entries of the snapshots the manifest
    /// names. An entry dated more than a day after the publication is left out of them (it
    /// would stay on top for good: normalisation no longer stores such dates, but a database
    /// may hold one from before, or from a hand). A snapshot that cannot be read leaves its
    /// feed's entries out, and says so.
    private func writeAggregates(feeds: [CatalogFeed], manifest: inout Manifest, report: inout PublishReport) throws(PipelineError) {
        let out = configuration.outputDirectory
        let byID = Dictionary(feeds.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
        let sources = manifest.feeds.compactMap { published in byID[published.feedID].map { ($0, out + "/" + published.file) } }
        let newest = AggregateEntry.newest(
            configuration.aggregateEntries, feeds: sources, notAfter: pipeline.clock().saturatingAdd(AggregateEntry.futureAllowance))
        report.warnings += newest.unreadable.map { "\($0); its entries are left out of atom.xml and index.html" }
        let counts = Dictionary(manifest.feeds.map { ($0.feedID, $0.itemCount) }, uniquingKeysWith: { first, _ in first })
        let pages = [
            ("atom.xml", AtomWriter.document(newest.entries, title: configuration.title, siteURL: configuration.siteURL)),
            ("index.html", IndexPage.document(newest.entries, feeds: feeds, itemCounts: counts, title: configuration.title)),
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
}
