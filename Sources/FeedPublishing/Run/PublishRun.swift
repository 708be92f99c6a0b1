import FeedBasics
import FeedModel
import FeedStorage
import Foundation

/// The publish step: client copies of the catalog and of each feed database, deltas, each
/// feed's pointer, the aggregated Atom feed and page, and the root last. Readers see the
/// previous publication or this one, never a mix: snapshots, deltas and the publisher record
/// are new, content-addressed names put in whole; a pointer keeps the last committed entry
/// beside the new one, which only the root makes usable; the root is committed last, over the
/// version read at the start. Durability is paid once per publication, not per file: the
/// files are written without a flush each, made durable together
/// (``PublicationTarget/makeDurable()``), and only then is the root committed, so that a power
/// cut never leaves a root naming a file that is not whole. A publication that fails (a full
/// disk, no inodes left) removes the files it wrote before it stops, so that its leftovers
/// cannot keep the disk full.
///
/// The order (SPEC-41 §5): lock the shard; read the root, the shard's record and its intent;
/// write snapshots, deltas and the catalog snapshot; the record; the intent (the pointers it
/// will write, and those an uncommitted publication wrote, to repair); the pointers; the root,
/// merged with the other shards' entries; then the stable names, the pages, and the removal
/// of what was retired longer ago than the grace period.
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

    var shard: Shard { configuration.shard }

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
    ///   - recover: when the root or the shard's record is missing or unusable, adopt again the
    ///     files whose bytes match the digests of the newest intact record (``ManifestStore``),
    ///     and publish.
    public func run(only: [Int64]? = nil, recover: Bool = false) throws(PublishError) -> PublishReport {
        let started = ContinuousClock.now
        let lock = try target.lock(for: shard, lease: configuration.lease)
        defer { withExtendedLifetime(lock) {} }
        // Every feed's health, read beside the rest from the start (``HealthReadAhead``): only a
        // run of every feed that may follow the change log reads it from the catalog.
        let healthAhead = shard.isAll && !recover && !configuration.full ? HealthReadAhead(catalogAt: catalog.path, listing: configuration.listedFeeds) : nil
        defer {
            healthAhead?.cancel()
            healthAhead?.wait()
        }
        let store = ManifestStore(target: target, shard: shard)
        var start = try store.start(recover: recover)
        // Before the catalog's feeds and their databases are read (``readChanges(previous:legacy:recovered:)``).
        let recovering = recover || !start.recovery.isEmpty
        let reading = readChanges(previous: start.manifest, legacy: start.legacy, recovered: recovering)
        // No feed's database in the log: most likely nothing to publish (a catalog row alone, such
        // as a `last_update` that waits for the catalog's refresh, often is not; when there is
        // something after all, the health is read then).
        if reading.feedIDs?.isEmpty == true { healthAhead?.cancel() }
        let catalogFeeds = try readCatalog(reading: reading, only: only, start: start, recovering: recovering)
        if catalogFeeds.complete { healthAhead?.cancel() }
        if let only, let unknown = UnknownFeeds.among(only, known: only.filter(catalogFeeds.lists)) { throw .unknownFeeds(unknown.feedIDs) }
        // Every feed is this shard's when there is one shard: only then may records be left unread.
        let feeds = shard.isAll ? catalogFeeds.ids : catalogFeeds.all.filter { Self.shardIndex(of: $0, count: shard.count) == shard.index }.map(\.feedID)
        let ownIDs = SortedFeedIDs(feeds)
        if start.legacy, !shard.isAll { start.manifest = Self.restricted(start.manifest, to: ownIDs) }
        // Above the root's entry too: a record recovered from before it (the newer ones damaged)
        // must not take the shard's generation back, which would make this publication's pointer
        // entries usable by the root still there before it commits.
        guard let generation = Manifest.count(after: Swift.max(start.manifest.generation, start.shardEntry(shard)?.generation ?? 0)) else {
            throw .unusableTarget(location: target.location, reason: Self.countedOut("shard \(shard.label)'s generation"))
        }
        var publication = Publication(start: start, target: target, generation: generation, shard: shard)
        publication.ownFeeds = ownIDs
        publication.catalogFeeds = catalogFeeds
        publication.reading = reading
        for id in only ?? [] where !ownIDs.contains(id) {
            let owner = catalogFeeds[id].map { Self.shardIndex(of: $0, count: shard.count) } ?? 0
            publication.report.warnings.append("feed \(id) is shard \(owner)/\(shard.count)'s, not published by shard \(shard.label)")
        }
        // The feeds this publication may write: every own feed, or those the log names (and
        // those the record has) when records are left unread.
        let candidates = catalogFeeds.complete ? feeds : publishCandidates(reading: reading, only: only, previous: start.manifest, catalog: catalogFeeds)
        let written = catalogFeeds.complete ? feeds : candidates.filter { reading.feedIDs?.contains($0) != false || only?.contains($0) == true }
        try StableNames.refuseForeign(
            names: written.map { PublishedName.feed($0).fileName } + [PublishedName.catalog.fileName], previous: start.manifest,
            rootExists: start.root != nil, present: start.listing, in: target)
        try StableNames.refuseForeignPointers(feeds: written, previous: start.manifest, present: start.listing, in: target)
        let allFeeds = shard.isAll ? [] : catalogFeeds.all
        do throws(PublishError) {
            publication.next.feeds = publishFeeds(candidates, only: only, &publication)
            // The pages first: they tell whether only `last_update` moved (``publishCatalog``).
            if shard.isAll { try publishCatalogPages(recovering: recovering, &publication) }
            publication.next.catalog = try publishCatalog(&publication)
            recordChangesSeen(only: only, &publication)
            if publication.due(recovering: recover) {
                // One shard of one: the pages' entries are kept in its record (other shards'
                // feeds are known only once the root is committed).
                let refreshed = shard.isAll ? refreshNewest(recovering: recovering, &publication) : nil
                try commit(store, allFeeds: allFeeds, &publication)
                let others = shard.isAll ? [] : otherShardsFeeds(store, root: publication.committedRoot)
                try writeAggregates(health: try health(of: catalogFeeds, readAhead: healthAhead), others: others, refreshed: refreshed, &publication)
                try markPagesWritten(publication.intent)
                removeRetired(store, &publication)
            } else {
                publication.next = publication.previous
                if publication.previous.atom == nil || start.pagesPending != nil {
                    let own = catalogFeeds.complete
                        ? FeedHealthSummary(catalogFeeds.all.filter { ownIDs.contains($0.feedID) }, listing: configuration.listedFeeds) : try health(of: catalogFeeds, readAhead: healthAhead)
                    let others = shard.isAll ? [] : otherShardsFeeds(store, root: start.root)
                    try writeAggregates(health: own, others: others, &publication)
                    try markPagesWritten(start.pagesPending)
                } else {
                    healthAhead?.cancel()
                }
                // What the last publication's record retired and its own temporaries, when an
                // error after its commit (or one that persisted: a full disk) kept it from
                // removing them: removed now, even with nothing to publish, not left until some
                // feed changes (issue 52). Only names still there: nothing is asked of a
                // bucket for names already gone.
                removeRetired(store, onlyPresent: true, &publication)
            }
        } catch {
            // A root changed underneath may name what this run skipped as already there: keep it all.
            if case .rootChanged = error {} else { publication.written.removeAll() }
            throw error
        }
        publication.report.filesWritten += try StableNames.sync(publication.next, catalog: publication.rootCatalog, in: target)
        publication.report.catalogRecordsRead = catalogFeeds.recordsRead
        publication.report.duration = (ContinuousClock.now - started).inSeconds
        return publication.report
    }

    /// The intent written again saying the pages are written: until then the next run writes
    /// them, even when nothing else is due (issue 52).
    private func markPagesWritten(_ intent: PublishIntent?) throws(PublishError) {
        guard var intent else { return }
        intent.pagesWritten = true
        try target.put(try intent.encoded(), as: PublishedName.intent(shard).fileName)
    }

    /// The change log's mark and the feeds still to read, for the next record. A publication of
    /// chosen feeds (`--feed`) keeps the previous mark: the other changed feeds are still to read.
    private func recordChangesSeen(only: [Int64]?, _ publication: inout Publication) {
        let failed = Set(publication.report.failures.map(\.feedID))
        var pending = failed
        if let only {
            publication.next.changes = publication.previous.changes
            pending.formUnion(Set(publication.previous.pendingFeeds ?? []).subtracting(only))
        } else {
            publication.next.changes = publication.reading.seen
        }
        // A feed no longer listed is not read again.
        pending = pending.filter(publication.ownFeeds.contains)
        publication.next.pendingFeeds = pending.isEmpty ? nil : pending.sorted()
    }

    /// The feeds the other shards in `root` published, by their records (a record that cannot
    /// be read leaves its feeds out of the pages, nothing else).
    private func otherShardsFeeds(_ store: ManifestStore, root: PublicationRoot?) -> [PublishedFeed] {
        (root?.shards ?? [:]).filter { $0.key != shard.label }.sorted { $0.key < $1.key }.flatMap { _, entry -> [PublishedFeed] in
            guard case .found(let record) = store.read(entry.record) else { return [] }
            return record.feeds
        }
    }

    /// The shard a catalog feed is in: by its URL's host.
    static func shardIndex(of feed: CatalogFeed, count: Int) -> Int {
        ShardAssignment.shardIndex(ofURL: feed.url, count: count)
    }

    /// A format-1 manifest as the previous record of one shard of several: its feeds, and the
    /// names of its feeds and of what every shard shares.
    static func restricted(_ manifest: Manifest, to ids: SortedFeedIDs) -> Manifest {
        var restricted = manifest
        restricted.feeds = manifest.feeds.filter { ids.contains($0.feedID) }
        func mine(_ name: String) -> Bool {
            switch PublishedName(fileName: name) {
            case .feed(let id)?, .feedVersion(let id, _)?, .feedDelta(let id, _, _)?: return ids.contains(id)
            default: return true
            }
        }
        restricted.stableFiles = manifest.stableFiles?.filter(mine)
        restricted.retiredFiles = manifest.retiredFiles?.filter(mine)
        return restricted
    }

    /// The version after `earlier`'s and above `floor` (the highest a format-1 file there has
    /// that the publication cannot vouch for, ``ManifestStore``), for the snapshot called `name`.
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

    /// Removes what was retired long enough ago, and the temporaries of runs that ended (the
    /// publisher's own plain files only).
    private func removeRetired(_ store: ManifestStore, onlyPresent: Bool = false, _ publication: inout Publication) {
        var names = PublishedFiles.due(
            publication.next.retired ?? [], now: configuration.clock(), generation: publication.generation, grace: configuration.retireAfter)
        if onlyPresent { names = names.filter(publication.start.listing.contains) }
        let shared = catalogsNamedElsewhere(store, root: publication.committedRoot ?? publication.start.root)
        names.removeAll { shared($0) }
        names += PublishedFiles.staleTemporaries(among: publication.start.listing, in: target).sorted()
        publication.report.filesRemoved = PublishedFiles.remove(names, in: target)
        publication.report.filesRemoved += removeOwnPointers(of: publication.leaving)
    }

    /// Catalog snapshots are named by their bytes, so two shards whose catalogs are
    /// byte-identical share one: a snapshot this shard retired may be the one the root or
    /// another shard's record (of those the root names) still gives. Those stay; they remain
    /// in this shard's retired names, to be removed by a later publication once nobody
    /// names them. A record that cannot be read keeps every catalog snapshot.
    private func catalogsNamedElsewhere(_ store: ManifestStore, root: PublicationRoot?) -> (String) -> Bool {
        var named = Set<String>()
        if let file = root?.catalog?.file { named.insert(file) }
        for (label, entry) in root?.shards ?? [:] where label != shard.label {
            guard case .found(let record) = store.read(entry.record) else {
                return { name in
                    switch PublishedName(fileName: name) {
                    case .catalogVersion?, .catalogSnapshot?: return true
                    default: return named.contains(name)
                    }
                }
            }
            if let file = record.catalog?.file { named.insert(file) }
            named.formUnion(record.rootCatalogs ?? [])
        }
        return { named.contains($0) }
    }

    /// The pointers of feeds that left this shard for another (a feedid given again to a feed
    /// of another host) while they still give only this shard's entries: the catalog now lists
    /// another feed under that id, to which their items must not be given. A pointer the
    /// feed's new shard has written is its own, and stays.
    private func removeOwnPointers(of feeds: Set<Int64>) -> Int {
        feeds.sorted().filter { id in
            let name = PublishedName.pointer(id).fileName
            guard let bytes = target.read(name), let pointer = try? JSONDecoder().decode(FeedPointer.self, from: Data(bytes)),
                pointer.feedID == id, pointer.entries.allSatisfy({ $0.shard == shard.label })
            else { return false }
            return target.delete(name)
        }.count
    }
}

/// One publication in progress: where it started, what it has written, what it will name.
struct Publication {
    let start: ManifestStore.Start
    /// Until the root names them, the files this publication writes are its own to remove.
    let written: WrittenFiles
    /// This shard's generation if the publication is committed.
    let generation: Int
    let shard: Shard
    var next: Manifest
    var report: PublishReport
    /// Content digests computed for versions carried over from a manifest written before
    /// digests existed: the new record must be written to give them.
    var digestsAdded = 0
    /// The catalog the root gives once committed (or as it was, when nothing was).
    var rootCatalog: RootCatalog?
    /// The root this publication committed.
    var committedRoot: PublicationRoot?
    /// The intent this publication wrote: written again once the pages are, saying so.
    var intent: PublishIntent?
    /// The names there: the start's listing, with what this publication put since.
    var present: Set<String>
    /// The catalog's feeds of this shard (the names of the others' are never retired here).
    var ownFeeds = SortedFeedIDs([])
    /// Feeds this shard published that the catalog lists under another shard now.
    var leaving: Set<Int64> = []
    /// Which feeds the change log says to read (``PublishRun/readChanges(previous:legacy:recovered:)``).
    var reading = ChangeReading.everything
    /// The catalog's feeds, every shard's (read once: the pages' entries and the pointers'
    /// `about` look feeds up in it).
    var catalogFeeds = CatalogFeeds(all: [])
    /// The catalog's pages that changed differ in `last_update` alone (``PublishRun/publishCatalogPages(recovering:_:)``):
    /// a large catalog snapshot may wait (``PublishConfiguration/catalogRefresh``).
    var onlyLastUpdateMoved = false

    init(start: ManifestStore.Start, target: any PublicationTarget, generation: Int, shard: Shard) {
        self.start = start
        self.generation = generation
        self.shard = shard
        written = WrittenFiles(in: target, keeping: start.manifest.files.union(start.leftAlone))
        next = Manifest(generation: start.manifest.generation)
        report = PublishReport(startingAt: start.manifest.generation)
        report.recovery = start.recovery
        rootCatalog = start.root?.catalog
        present = start.listing
    }

    var previous: Manifest { start.manifest }

    /// Whether a new publication is due: files written, the feeds named changed, a stable
    /// name not yet owned by the record, a recovery, pointers to repair or missing, a shard
    /// the root does not know yet, or a manifest of format 1 (or without content digests) to
    /// bring up to date.
    func due(recovering: Bool) -> Bool {
        let unowned = !Set(StableNames.names(of: next)).isSubset(of: previous.stableFiles ?? [])
        let outdated = start.legacy || !previous.isRecord || digestsAdded > 0 || start.shardEntry(shard) == nil
        let repairing = start.repairAll || !start.repair.isEmpty
        let pointersMissing = next.feeds.contains { !present.contains(PublishedName.pointer($0.feedID).fileName) }
        return report.filesWritten > 0 || next.feeds.map(\.feedID) != previous.feeds.map(\.feedID) || unowned || recovering || outdated
            || repairing || pointersMissing || next.catalogPages != previous.catalogPages
    }
}
