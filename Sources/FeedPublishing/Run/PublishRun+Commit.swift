import FeedBasics
import FeedStorage
import Foundation

/// Committing a publication (SPEC-41 §5, steps 4 to 7): the record, the intent, the pointers,
/// the root.
extension PublishRun {
    /// How many times a root commit is tried again when only other shards' entries changed.
    static let commitAttempts = 5

    func commit(_ store: ManifestStore, allFeeds: [CatalogFeed], _ publication: inout Publication) throws(PublishError) {
        let generation = publication.generation
        let now = configuration.clock()
        var next = publication.next
        next.format = Manifest.recordFormatName
        next.formatVersion = Manifest.recordFormatVersion
        next.generation = generation
        next.shard = shard.label
        next.atom = PublishedName.atom.fileName
        next.index = PublishedName.index.fileName
        // Names of feeds no longer published stay listed until their removal is done.
        // A feed the catalog lists under another shard now: its stable name is that shard's to
        // write, so it stays listed (and is removed) only while it still holds one of this
        // shard's snapshots of the feed; otherwise it is let go, not removed.
        let ownFeeds = publication.ownFeeds
        let othersFeeds = shard.isAll ? [] : Set(allFeeds.map(\.feedID).filter { !ownFeeds.contains($0) })
        let stable = Set(StableNames.names(of: next)).union((publication.previous.stableFiles ?? []).filter { name in
            guard publication.present.contains(name) else { return false }
            guard let id = PublishedFiles.feedID(of: name), othersFeeds.contains(id) else { return true }
            let own = publication.previous.feeds.filter { $0.feedID == id }.flatMap { [$0.sha256] + $0.history.map(\.sha256) }
            return target.holdsFile(name) && target.read(name).map { own.contains(SHA256.hexDigest($0)) } ?? false
        })
        next.stableFiles = stable.sorted()
        next.retiredFiles = nil
        // The catalog the root will give, merged from the shards' when there are several.
        var rootCatalog = try catalogForRoot(base: publication.start.root, next: next, allFeeds: allFeeds, &publication)
        next.rootCatalogs = shard.isAll ? nil : rootCatalog.map { [$0.file] }
        // The record's feeds in pages, those that changed put now: named before anything is retired.
        let pages = try store.writePages(of: &next, written: publication.written, start: publication.start)
        publication.report.filesWritten += pages.files
        publication.report.bytesWritten += pages.bytes
        let retired = PublishedFiles.retire(
            previous: publication.previous, previousRecord: publication.start.recordName, next: next,
            keep: Set([publication.start.root?.catalog?.file, rootCatalog?.file].compactMap { $0 }), now: now, generation: generation,
            othersFeeds: othersFeeds, in: target)
        publication.leaving = Set(publication.previous.feeds.map(\.feedID)).intersection(othersFeeds)
        next.retired = retired.isEmpty ? nil : retired
        publication.next = next
        // Step 3's end: every snapshot and delta durable before anything names them.
        try target.makeDurable()

        // 4. The record, immutable, named by its digest; its digest's start is the publication id.
        let recordBytes = try store.encoded(next)
        let (digest, publicationID) = PublicationJSON.publicationID(ofRecord: recordBytes)
        let recordName = PublishedName.record(shard, sha256: digest).fileName
        if try target.putImmutable(recordBytes, as: recordName) { publication.written.add(recordName) }
        publication.report.filesWritten += 1
        publication.report.bytesWritten += recordBytes.count

        // 5. The intent: the pointers this publication writes, with those to repair, and those
        // of the feeds read whose pointer would change (their `about`: a feed renamed).
        // Each feed's about made only for the pointers looked at (links checked: not for every feed).
        let catalogFeeds = publication.catalogFeeds
        let about = { (id: Int64) in catalogFeeds[id].map(PointerAbout.init) }
        var pointers = pointerFeeds(publication, present: publication.present)
        for feed in next.feeds where !pointers.contains(feed.feedID) && publication.reading.feedIDs?.contains(feed.feedID) != false {
            let bytes = try signed(pointer(of: feed, publication: publicationID, generation: generation, about: about(feed.feedID)).encoded(), feed.feedID)
            if target.read(PublishedName.pointer(feed.feedID).fileName) != bytes { pointers.insert(feed.feedID) }
        }
        let intent = PublishIntent(generation: generation, publication: publicationID, feeds: pointers.sorted())
        try target.put(try intent.encoded(), as: PublishedName.intent(shard).fileName)
        publication.intent = intent

        // 6. The pointers, each with its new entry and the last committed one.
        for feed in next.feeds where pointers.contains(feed.feedID) {
            let bytes = try signed(pointer(of: feed, publication: publicationID, generation: generation, about: about(feed.feedID)).encoded(), feed.feedID)
            // A pointer to repair that the run cut short never reached keeps its bytes (and ETag).
            if feed.entryPublication != nil, target.read(PublishedName.pointer(feed.feedID).fileName) == bytes { continue }
            try target.put(bytes, as: PublishedName.pointer(feed.feedID).fileName)
            publication.present.insert(PublishedName.pointer(feed.feedID).fileName)
            publication.report.pointersWritten += 1
            publication.report.filesWritten += 1
            publication.report.bytesWritten += bytes.count
        }
        try target.makeDurable()

        // 7. The root, over the version read at the start, merged again when another shard committed meanwhile.
        let entry = ShardEntry(generation: generation, publication: publicationID, record: recordName)
        var base = publication.start.root
        var expected = publication.start.rootVersion
        var attempt = 1
        while true {
            let root = try makeRoot(base: base, legacyGeneration: publication.start.legacy ? publication.previous.generation : nil,
                entry: entry, catalog: rootCatalog, catalogIndex: next.catalogPages?.index)
            let bytes = try SignedDocument.sign(try root.encoded(), with: configuration.signingKey, what: Self.manifestName)
            do throws(PublishError) {
                _ = try target.commitRoot(bytes, as: Self.manifestName, expecting: expected)
                publication.report.filesWritten += 1
                publication.report.bytesWritten += bytes.count
                publication.report.rootGeneration = root.generation
                publication.rootCatalog = root.catalog
                publication.committedRoot = root
                break
            } catch {
                guard case .rootChanged = error else {
                    // Failed once the root was in place (the sync of its directory): the root
                    // names this publication, so nothing it wrote may be taken back (issue 52).
                    if (try? target.readRoot(Self.manifestName))?.0 == bytes { publication.written.keepAll() }
                    throw error
                }
                guard attempt < Self.commitAttempts else { throw error }
                let (rereadBytes, version) = try target.readRoot(Self.manifestName)
                guard let rereadBytes, case .root(let reread) = ManifestStore.decodeRoot(rereadBytes),
                    reread.shards[shard.label] == publication.start.root?.shards[shard.label]
                else {
                    throw .rootChanged(
                        location: target.location + "/" + Self.manifestName,
                        detail: "shard \(shard.label) was published by another publisher meanwhile, or the root was replaced")
                }
                base = reread
                expected = version
                attempt += 1
                usleep(UInt32.random(in: 10_000...50_000) * UInt32(attempt))
                if !shard.isAll {
                    // Merged again with the other shards' catalogs as they are now, durable before the root names it.
                    rootCatalog = try catalogForRoot(base: base, next: next, allFeeds: allFeeds, &publication)
                    try target.makeDurable()
                }
            }
        }
        publication.written.keepAll()
        publication.report.generation = generation
        publication.report.publication = publicationID
    }

    /// The feeds whose pointers this publication writes: those with an entry it made, those an
    /// uncommitted publication's intent named, and those whose pointer is not there.
    private func pointerFeeds(_ publication: Publication, present: Set<String>) -> Set<Int64> {
        Set(publication.next.feeds.filter { feed in
            feed.entryPublication == nil || publication.start.repairAll || publication.start.repair.contains(feed.feedID)
                || !present.contains(PublishedName.pointer(feed.feedID).fileName)
        }.map(\.feedID))
    }

    /// A feed's pointer: its entry (this publication's when it has no other), then the last
    /// committed one before it.
    /// A pointer's bytes, signed when the publisher has a key.
    private func signed(_ bytes: [UInt8], _ feedID: Int64) throws(PublishError) -> [UInt8] {
        try SignedDocument.sign(bytes, with: configuration.signingKey, what: PublishedName.pointer(feedID).fileName)
    }

    func pointer(of feed: PublishedFeed, publication: String, generation: Int, about: PointerAbout?) -> FeedPointer {
        var entries = [
            PointerEntry(feed, shard: shard.label, generation: feed.entryGeneration ?? generation, publication: feed.entryPublication ?? publication)
        ]
        if var previous = feed.previousEntry {
            // Without its deltas: a client takes it only while its root is older than this
            // publication (a cache, a publication cut short), and then downloads the file. Every
            // client that fetches the pointer would pay for them (issue 51: ~190 bytes each).
            previous.deltas = []
            entries.append(previous)
        }
        return FeedPointer(feedID: feed.feedID, entries: entries, about: about)
    }

    /// The root after this commit: `base`'s entries of shards of the same N, this shard's new
    /// entry, the catalog.
    private func makeRoot(
        base: PublicationRoot?, legacyGeneration: Int?, entry: ShardEntry, catalog: RootCatalog?, catalogIndex: RootCatalogIndex?
    ) throws(PublishError) -> PublicationRoot {
        guard let generation = Manifest.count(after: base?.generation ?? legacyGeneration ?? 0) else {
            throw .unusableTarget(location: target.location, reason: Self.countedOut("\(Self.manifestName)'s generation"))
        }
        var shards = (base?.shards ?? [:]).filter { label, _ in (try? Shard(parsing: label))?.count == shard.count }
        shards[shard.label] = entry
        var root = PublicationRoot(generation: Swift.max(generation, entry.generation), shards: shards, catalog: catalog)
        // Written by a publication of every feed only: shards have none (yet).
        root.catalogIndex = shard.isAll ? catalogIndex : nil
        return root
    }

    /// The catalog the root gives: this shard's snapshot when it publishes every feed; with
    /// several shards, the merge of the catalogs the shards' records name (feeds from this
    /// shard's, `about` and `last_update` of each feed from its owner's, or from this shard's
    /// when its owner is not in the root yet), written content-addressed.
    private func catalogForRoot(
        base: PublicationRoot?, next: Manifest, allFeeds: [CatalogFeed], _ publication: inout Publication
    ) throws(PublishError) -> RootCatalog? {
        guard let own = next.catalog else { return base?.catalog }
        guard !shard.isAll else { return RootCatalog(own) }
        var owners: [(snapshot: String, feedIDs: Set<Int64>)] = []
        let store = ManifestStore(target: target, shard: shard)
        for (label, entry) in (base?.shards ?? [:]).sorted(by: { $0.key < $1.key }) where label != shard.label {
            guard let other = try? Shard(parsing: label), other.count == shard.count,
                case .found(let record) = store.read(entry.record), let catalog = record.catalog
            else { continue }
            let ids = Set(allFeeds.filter { Self.shardIndex(of: $0, count: shard.count) == other.index }.map(\.feedID))
            owners.append((try target.localCopy(of: catalog.file), ids))
        }
        let scratch = try target.scratchPath()
        let ownCopy = try target.localCopy(of: own.file)
        let merged = try rethrowing(
            try Snapshot.writeMergedCatalog(base: ownCopy, owners: owners, to: scratch, flushing: .later), as: PublishError.storage)
        let file = PublishedName.catalogSnapshot(sha256: merged.sha256).fileName
        // The rows it could not read were said of this shard's own snapshot; a disagreement is said here.
        publication.report.warnings += merged.problems.filter { $0.contains("shards' catalogs") && !publication.report.warnings.contains($0) }
        if try target.putImmutable(fileAt: scratch, as: file) {
            publication.written.add(file)
            publication.report.filesWritten += 1
            publication.report.bytesWritten += merged.size
        }
        let earlier = base?.catalog
        let version: Int
        if let earlier, earlier.sha256 == merged.sha256 {
            version = earlier.version
        } else {
            version = try nextVersion(after: Swift.max(earlier?.version ?? 0, own.version - 1), floor: nil, of: .catalog)
        }
        var catalog = RootCatalog(own)
        catalog.file = file
        catalog.version = version
        catalog.sha256 = merged.sha256
        catalog.size = merged.size
        catalog.feedCount = merged.rowCount
        catalog.contentDigest = merged.contentDigest
        return catalog
    }
}
