import FeedBasics
import FeedStorage

/// Publishing each feed: its snapshot, new or carried over, and deltas from earlier versions.
extension PublishRun {
    /// Each feed's snapshot, new or carried over. One bad database must not stop the others:
    /// a feed that cannot be published keeps its last good snapshot (if it still exists) and
    /// the report says which feed and why. A feed removed from the catalog while this runs
    /// (`rss-feeds remove` does not wait for a publication) is passed over without a word.
    /// `feedIDs`: the feeds to look at, ascending (``publishCandidates(reading:only:previous:catalog:)``).
    func publishFeeds(_ feedIDs: [Int64], only: [Int64]?, _ publication: inout Publication) -> [PublishedFeed] {
        let previousByID = Dictionary(publication.previous.feeds.map { ($0.feedID, $0) }, uniquingKeysWith: { first, _ in first })
        let selected = only.map(Set.init)
        var published: [PublishedFeed] = []
        let reading = publication.reading.feedIDs
        for id in feedIDs {
            let earlier = previousByID[id]
            // Unchanged since the record's mark: carried over without opening its database,
            // unless its files are gone from the publication or of an older schema.
            if let reading, !reading.contains(id), selected?.contains(id) != true {
                if let earlier, earlier.schemaVersion == Snapshot.feedSchemaVersion, publication.present.contains(earlier.file) {
                    published.append(carriedOver(earlier, &publication) ?? earlier)
                    publication.report.feedsUnchanged += 1
                    continue
                }
                // Without an entry: read when its database is there (a recovered record may
                // have dropped it), passed over when it is not, as any feed's below.
            }
            // Removed from the catalog since it was read: passed over, as below.
            guard let feed = publication.catalogFeeds[id] else { continue }
            let source = data.feedDatabasePath(feed.feedID)
            let condition = FeedDatabaseFile.condition(of: source)
            guard condition != .missing else { continue }
            if let selected, !selected.contains(feed.feedID) {
                if let earlier { published.append(carriedOver(earlier, &publication) ?? earlier) }
                continue
            }
            do throws(PublishError) {
                switch condition {
                case .unusable(let reason): throw .storage(StorageError(path: source, message: reason, kind: .damaged))
                case .empty: throw .storage(StorageError(path: source, message: "is empty (0 bytes)", kind: .damaged))
                default: break
                }
                // Clients must never get one feed's items under another's feedid.
                if let mismatch = FeedDatabase.mismatch(at: source, for: feed.identity) { throw .storage(mismatch) }
                var snapshot = try publishFeed(
                    feed, source: source, earlier: earlier, floor: publication.start.versionFloors[.feed(feed.feedID)], &publication)
                snapshot.lastUpdate = feed.lastUpdate
                published.append(snapshot)
            } catch {
                if removedMeanwhile(feed.feedID) { continue }
                var message = error.description
                if case .storage(let storage) = error, storage.kind == .wrongValues {
                    message += "; rss-update --feed \(feed.feedID) repairs it"
                }
                publication.report.failures.append(PublishFailure(feedID: feed.feedID, message: message))
                if let earlier, publication.present.contains(earlier.file) { published.append(carriedOver(earlier, &publication) ?? earlier) }
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
        _ feed: CatalogFeed, source: String, earlier: PublishedFeed?, floor: Int?, _ publication: inout Publication
    ) throws(PublishError) -> PublishedFeed {
        let fingerprint = try rethrowing(try Snapshot.feedFingerprint(source), as: PublishError.storage)
        // A version of an older schema is republished (a new version, a full file) even when
        // its source did not change: clients get the columns this Feedmill publishes.
        if let earlier, earlier.sourceFingerprint == fingerprint, earlier.schemaVersion == Snapshot.feedSchemaVersion,
            !configuration.full, publication.present.contains(earlier.file), let carried = carriedOver(earlier, &publication)
        {
            publication.report.feedsUnchanged += 1
            return carried
        }
        let version = try nextVersion(after: earlier?.version, floor: floor, of: .feed(feed.feedID))
        // What this feed writes goes again if the feed fails half-way (a delta cannot be written).
        let written = publication.written
        let mark = written.mark()
        do throws(PublishError) {
            let scratch = try target.scratchPath()
            let snapshot = try rethrowing(try Snapshot.writeFeed(from: source, to: scratch, flushing: .later), as: PublishError.storage)
            let file = PublishedName.feedSnapshot(feed.feedID, sha256: snapshot.sha256).fileName
            if try target.putImmutable(fileAt: scratch, as: file) { written.add(file) }
            publication.present.insert(file)
            // Earlier versions still there, newest first, each with a delta to this one.
            var history: [PublishedVersion] = []
            if let earlier {
                history = [PublishedVersion(version: earlier.version, file: earlier.file, sha256: earlier.sha256, schemaVersion: earlier.schemaVersion)]
                    + earlier.history
                history = Array(history.prefix(configuration.retainedVersions))
            }
            let deltas = try writeDeltas(feed.feedID, to: version, snapshot: file, digest: snapshot.contentDigest, from: history, &publication)
            publication.report.feedsWritten += 1
            publication.report.deltasWritten += deltas.count
            publication.report.filesWritten += 1 + deltas.count
            publication.report.bytesWritten += snapshot.size + deltas.reduce(0) { $0 + $1.size }
            var published = PublishedFeed(
                feedID: feed.feedID, name: PublishedName.feed(feed.feedID).fileName, file: file, version: version,
                sha256: snapshot.sha256, size: snapshot.size, itemCount: snapshot.rowCount, lastUpdate: feed.lastUpdate,
                schemaVersion: Snapshot.feedSchemaVersion, sourceFingerprint: fingerprint, contentDigest: snapshot.contentDigest,
                deltas: deltas, history: history)
            published.entryGeneration = publication.generation
            published.previousEntry = earlier.flatMap { committedEntry($0) }
            return published
        } catch {
            written.removeAll(since: mark)
            throw error
        }
    }

    /// The pointer entry a feed's record entry was committed as: none for a format-1 entry,
    /// which no pointer gave.
    func committedEntry(_ feed: PublishedFeed) -> PointerEntry? {
        guard let generation = feed.entryGeneration, let publication = feed.entryPublication else { return nil }
        return PointerEntry(feed, shard: shard.label, generation: generation, publication: publication)
    }

    /// A delta from each earlier version still there to `version`, whose content digest is
    /// `digest`. An earlier snapshot of another schema version gets none (its columns differ:
    /// a client at that version downloads the snapshot). One that cannot be read gets none
    /// either, and the report says so.
    private func writeDeltas(
        _ feedID: Int64, to version: Int, snapshot file: String, digest: String, from history: [PublishedVersion],
        _ publication: inout Publication
    ) throws(PublishError) -> [PublishedDelta] {
        guard !history.isEmpty else { return [] }
        let current = try rethrowing(try Snapshot.items(ofSnapshot: try localCopy(file)), as: PublishError.storage)
        var deltas: [PublishedDelta] = []
        // Versions of another schema get none: the record says so, or the file (a version that
        // shares its file with a later one of the same rows says only the later's).
        for old in history where publication.present.contains(old.file) && (old.schemaVersion ?? Snapshot.feedSchemaVersion) == Snapshot.feedSchemaVersion {
            let items: [String: [SQLValue]]
            do throws(StorageError) {
                let path = try localCopy(old.file)
                guard try Snapshot.schemaVersion(ofSnapshot: path) == Snapshot.feedSchemaVersion else { continue }
                items = try Snapshot.items(ofSnapshot: path)
            } catch {
                publication.report.warnings.append("feed \(feedID): no delta from version \(old.version): \(error.description)")
                continue
            }
            let delta = Delta(feedID: feedID, from: old.version, to: version, toContentDigest: digest, old: items, new: current)
            let bytes = try rethrowing(try delta.encoded(), as: { (error: any Error) in
                PublishError.storage(StorageError(path: target.location + "/feed_\(feedID) delta", message: "encoding delta failed: \(error)"))
            })
            let deltaFile = PublishedName.feedDeltaFile(feedID, sha256: SHA256.hexDigest(bytes)).fileName
            if try target.putImmutable(bytes, as: deltaFile) { publication.written.add(deltaFile) }
            publication.present.insert(deltaFile)
            deltas.append(PublishedDelta(fromVersion: old.version, file: deltaFile, sha256: SHA256.hexDigest(bytes), size: bytes.count))
        }
        return deltas
    }

    /// A feed's published version carried over unchanged, brought up to this format: with its
    /// content digest (``carriedDigest(_:of:_:)``); and when the manifest was written before
    /// digests, without its deltas, which lack `schema_version` and `to_content_digest` (they
    /// are retired as usual; a client at their versions downloads the file). A format-1 entry
    /// is put again under its format-2 names (the same bytes: same version, same digests) and
    /// becomes this publication's entry, since no pointer gives it yet. `nil` when the digest
    /// cannot be computed or the file cannot be moved.
    func carriedOver(_ earlier: PublishedFeed, _ publication: inout Publication) -> PublishedFeed? {
        guard let digest = carriedDigest(earlier.contentDigest, of: earlier.file, &publication) else { return nil }
        var carried = earlier
        if earlier.contentDigest != digest { carried.deltas = [] }
        carried.contentDigest = digest
        guard earlier.entryGeneration == nil || earlier.entryPublication == nil else { return carried }
        do throws(PublishError) {
            carried.file = try migrated(earlier.file, sha256: earlier.sha256, as: .feedSnapshot(earlier.feedID, sha256: earlier.sha256), &publication)
            carried.deltas = carried.deltas.compactMap { delta in
                var moved = delta
                guard let file = try? migrated(delta.file, sha256: delta.sha256, as: .feedDeltaFile(earlier.feedID, sha256: delta.sha256), &publication)
                else { return nil }
                moved.file = file
                return moved
            }
        } catch {
            return nil
        }
        carried.entryGeneration = publication.generation
        carried.entryPublication = nil
        carried.previousEntry = nil
        return carried
    }

    /// `file` under its format-2 name `name`, put there from its bytes when it is a format-1
    /// name and its bytes have `sha256`.
    func migrated(_ file: String, sha256: String, as name: PublishedName, _ publication: inout Publication) throws(PublishError) -> String {
        guard file != name.fileName else { return file }
        guard let bytes = target.read(file), SHA256.hexDigest(bytes) == sha256 else {
            throw .storage(StorageError(path: target.location + "/" + file, message: "is not what was published"))
        }
        publication.present.insert(name.fileName)
        if try target.putImmutable(bytes, as: name.fileName) {
            publication.written.add(name.fileName)
            publication.report.filesWritten += 1
            publication.report.bytesWritten += bytes.count
        }
        return name.fileName
    }

    /// The content digest of a version carried over unchanged: the manifest's, or, when the
    /// manifest was written before digests existed (or holds a malformed one), computed from
    /// the published file, which makes the next manifest due. `nil` when it cannot be: the
    /// snapshot is then published anew.
    func carriedDigest(_ recorded: String?, of file: String, _ publication: inout Publication) -> String? {
        if let recorded, ContentDigest.isWellFormed(recorded) { return recorded }
        do throws(StorageError) {
            let digest = try Snapshot.contentDigest(ofSnapshot: try localCopy(file))
            publication.digestsAdded += 1
            return digest
        } catch {
            return nil
        }
    }

    /// The local path of a published file, its failure as a storage error (the one a reader of
    /// the snapshot would give).
    func localCopy(_ name: String) throws(StorageError) -> String {
        try rethrowing(try target.localCopy(of: name), as: { (error: PublishError) in
            if case .storage(let storage) = error { return storage }
            return StorageError(path: target.location + "/" + name, message: error.description)
        })
    }
}
