import FeedBasics
import FeedStorage

/// Publishing what spans every feed: the catalog's snapshot, `atom.xml` and `index.html`.
extension PublishRun {
    func publishCatalog(_ publication: inout Publication) throws(PublishError) -> PublishedCatalog {
        let previous = publication.previous.catalog
        let now = configuration.clock()
        let refreshDue = previous.map { $0.behind == true && now.saturatingSubtract($0.writtenAt ?? 0) >= configuration.catalogRefresh } ?? false
        let reusable = previous.map { previous in
            previous.schemaVersion == Snapshot.catalogSchemaVersion && publication.present.contains(previous.file)
                && previous.contentDigest.map(ContentDigest.isWellFormed) == true
        } ?? false
        // The client tables unchanged since the record's mark: no need to read them all again.
        if let previous, reusable, !publication.reading.catalogChanged, !refreshDue {
            return previous
        }
        // Only `last_update` moved, in a large catalog written less than `catalogRefresh` ago:
        // it waits (the pointers and pages carry the new values), marked behind.
        if var previous, reusable, !configuration.full, publication.onlyLastUpdateMoved, previous.size >= configuration.catalogDeferralSize,
            now.saturatingSubtract(previous.writtenAt ?? 0) < configuration.catalogRefresh
        {
            previous.behind = true
            return previous
        }
        let fingerprint = try rethrowing(try Snapshot.catalogFingerprint(catalog.readLocation), as: PublishError.storage)
        if let previous, previous.sourceFingerprint == fingerprint, previous.schemaVersion == Snapshot.catalogSchemaVersion,
            !configuration.full, publication.present.contains(previous.file),
            let digest = carriedDigest(previous.contentDigest, of: previous.file, &publication),
            let file = try? migrated(previous.file, sha256: previous.sha256, as: .catalogSnapshot(sha256: previous.sha256), &publication)
        {
            var carried = previous
            carried.contentDigest = digest
            carried.file = file
            // The catalog is as its snapshot holds it: nothing is behind.
            carried.behind = nil
            return carried
        }
        let version = try nextVersion(after: previous?.version, floor: publication.start.versionFloors[.catalog], of: .catalog)
        let name = PublishedName.catalog.fileName
        let scratch = try target.scratchPath()
        let snapshot = try rethrowing(
            try Snapshot.writeCatalog(from: catalog.readLocation, to: scratch, flushing: .later), as: PublishError.storage)
        let file = PublishedName.catalogSnapshot(sha256: snapshot.sha256).fileName
        if try target.putImmutable(fileAt: scratch, as: file) { publication.written.add(file) }
        publication.present.insert(file)
        publication.report.filesWritten += 1
        publication.report.bytesWritten += snapshot.size
        publication.report.warnings += snapshot.problems.map { "\(name): \($0); rss-update repairs it in the catalog" }
        return PublishedCatalog(
            name: name, file: file, version: version, sha256: snapshot.sha256, size: snapshot.size,
            feedCount: snapshot.rowCount, schemaVersion: Snapshot.catalogSchemaVersion, sourceFingerprint: fingerprint,
            contentDigest: snapshot.contentDigest, writtenAt: now)
    }

    /// The newest entries for the pages of a publication of every feed (one shard of one),
    /// from those its previous record kept and the snapshots that changed
    /// (``NewestEntriesKept``); kept in the next record. Read before the commit, so the record
    /// committed holds them. A recovery, `--full` or a previous format-1 manifest reads every
    /// snapshot.
    func refreshNewest(recovering: Bool, _ publication: inout Publication) -> NewestEntriesKept.Refreshed {
        let previous = publication.previous
        let usable = previous.isRecord && !recovering && !configuration.full ? previous.newest : nil
        let refreshed = newest(
            from: usable, previousFiles: Dictionary(previous.feeds.map { ($0.feedID, $0.file) }, uniquingKeysWith: { first, _ in first }),
            published: publication.next.feeds, &publication)
        publication.next.newest = refreshed.kept
        return refreshed
    }

    /// The newest entries of `published`, from `kept` and the snapshots that need reading
    /// (every one without `kept`), as ``NewestEntriesKept/refresh(_:previousFiles:published:feeds:limit:notAfter:path:)``
    /// reads them. An entry dated more than a day after the publication is left out (it would
    /// stay on top for good: normalisation no longer stores such dates, but a database may
    /// hold one from before, or from a hand).
    private func newest(
        from kept: NewestEntriesKept?, previousFiles: [Int64: String], published: [PublishedFeed], _ publication: inout Publication
    ) -> NewestEntriesKept.Refreshed {
        let refreshed = NewestEntriesKept.refresh(
            kept, previousFiles: previousFiles, published: published.sorted { $0.feedID < $1.feedID }, feeds: publication.catalogFeeds,
            limit: configuration.aggregateEntries, notAfter: configuration.clock().saturatingAdd(AggregateEntry.futureAllowance),
            path: localCopy)
        publication.report.pageSnapshotsRead = refreshed.snapshotsRead
        return refreshed
    }

    /// `atom.xml` and `index.html`, from the newest entries: `refreshed` (``refreshNewest``), or
    /// those of every snapshot the manifest names. A snapshot that cannot be read leaves its
    /// feed's entries out, and says so. A page already as it would be written is not put again.
    /// `others` are the feeds other shards published (as their records in the root give them).
    /// `health`: the feeds `index.html` shows the health of; the records of those it lists are
    /// read (``CatalogFeeds``) once, together.
    func writeAggregates(
        health: FeedHealthSummary, others: [PublishedFeed] = [], refreshed: NewestEntriesKept.Refreshed? = nil, _ publication: inout Publication
    ) throws(PublishError) {
        let published = (publication.next.feeds + others).sorted { $0.feedID < $1.feedID }
        let newest = refreshed ?? newest(from: nil, previousFiles: [:], published: published, &publication)
        publication.report.warnings += newest.unreadable.map { "\($0); its entries are left out of atom.xml and index.html" }
        let counts = Dictionary(published.map { ($0.feedID, $0.itemCount) }, uniquingKeysWith: { first, _ in first })
        let pages: [(PublishedName, String)] = [
            (.atom, AtomWriter.document(newest.entries, title: configuration.title, siteURL: configuration.siteURL)),
            (.index, IndexPage.document(
                newest.entries, health: health, feeds: try listedFeeds(health, publication.catalogFeeds), itemCounts: counts,
                title: configuration.title, now: configuration.clock(), listedFeeds: configuration.listedFeeds)),
        ]
        for (name, text) in pages {
            let bytes = Array(text.utf8)
            if target.read(name.fileName) != bytes {
                try target.put(bytes, as: name.fileName)
                publication.report.filesWritten += 1
                publication.report.bytesWritten += bytes.count
            }
        }
        publication.next.atom = PublishedName.atom.fileName
        publication.next.index = PublishedName.index.fileName
    }

    /// The records of the feeds `index.html` names: the failing ones its health section lists,
    /// and the first of the list of all feeds.
    private func listedFeeds(_ health: FeedHealthSummary, _ feeds: CatalogFeeds) throws(PublishError) -> [Int64: CatalogFeed] {
        let ids = IndexPage.listedFeedIDs(health, listedFeeds: configuration.listedFeeds)
        try rethrowing(try feeds.prefetch(ids), as: PublishError.storage)
        return Dictionary(ids.compactMap { id in feeds[id].map { (id, $0) } }, uniquingKeysWith: { first, _ in first })
    }
}
