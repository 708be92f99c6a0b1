import Foundation

/// Publication format 2: the root names the catalog and each shard's last commit; each
/// followed feed's pointer is fetched (revalidated with its ETag) and its first entry usable
/// for this root is synced. Feeds without one are "not yet published": their local files are
/// kept and the next sync tries again. Files of feeds the catalog no longer lists, or no longer
/// followed, are removed.
extension SyncSession {
    func syncFormat2(_ root: RootManifest) async {
        if case .only(let ids) = configuration.feeds, configuration.catalog == .followed, await syncFollowedOnly(ids, root: root) { return }
        let catalogReady = shouldStop ? false : await syncCatalog(root)
        let listed = localCatalogFeedIDs()
        let followed: [Int64]
        switch configuration.feeds {
        case .all: followed = listed ?? []
        case .only(let ids):
            followed = listed.map { Set($0).intersection(ids) }.map(Array.init) ?? Array(ids)
            if catalogReady, let listed {
                let absent = ids.subtracting(listed).sorted()
                state.catalogAbsent = absent.isEmpty ? nil : absent
            }
        }
        filesToSync = followed.count
        tellProgress()
        let pointers = shouldStop ? [:] : await fetchPointers(followed.sorted(), root: root)
        for feedID in followed.sorted() {
            guard !shouldStop else {
                report.left.append(SafeName.feed(feedID))
                continue
            }
            guard let answer = pointers[feedID] else { continue }
            _ = await syncFeed(feedID, root: root, answer: answer)
            fileDone(SafeName.feed(feedID))
        }
        let pointerNames = Set(followed.map(root.pointerName(for:)))
        state.pointers = state.pointers.filter { pointerNames.contains($0.key) }

        // Removal follows a catalog the client trusts this sync; without one, only what is no
        // longer followed goes (following every feed: nothing).
        var kept = Set(followed.map(SafeName.feed))
        if !catalogReady || listed == nil {
            switch configuration.feeds {
            case .all: kept.formUnion(state.files.keys)
            case .only(let ids): kept.formUnion(ids.map(SafeName.feed))
            }
        }
        // Stopped: what left is removed by the next sync, which sees the whole list.
        if !shouldStop { removeFeeds(keeping: kept) }
        report.notPublished.sort()
    }

    /// How many pointers are asked for at once: a sync following 50 feeds waits for a few
    /// round trips, not 50, and a server is not flooded.
    static let pointerConcurrency = 8

    /// Every followed feed's pointer, asked for with the ETag kept from the last sync, a few
    /// at a time; counted in the report as they come back.
    func fetchPointers(_ feedIDs: [Int64], root: RootManifest) async -> [Int64: Result<TransportResponse, ClientError>] {
        let requests = feedIDs.map { feedID in
            let name = root.pointerName(for: feedID)
            return (feedID, TransportRequest(url: url(of: name), ifNoneMatch: state.pointers[name]?.etag, maxBytes: PublicationSync.pointerByteLimit))
        }
        let transport = configuration.transport
        var answers: [Int64: Result<TransportResponse, ClientError>] = [:]
        await withTaskGroup(of: (Int64, Result<TransportResponse, ClientError>).self) { group in
            var pending = requests[...]
            for _ in 0..<Self.pointerConcurrency {
                guard let (feedID, request) = pending.popFirst() else { break }
                group.addTask { (feedID, await Self.perform(request, with: transport)) }
            }
            while let (feedID, result) = await group.next() {
                count(result)
                answers[feedID] = result
                if let (next, request) = pending.popFirst() {
                    group.addTask { (next, await Self.perform(request, with: transport)) }
                }
            }
        }
        return answers
    }

    /// What became of one feed in a sync.
    enum FeedOutcome {
        /// Its pointer was read and its file brought to the entry usable for the root (or
        /// tried: a problem with the file is in the report).
        case published(FeedPointer, PointerEntry)
        /// No pointer (404): not published, yet or any more.
        case notPublished
        /// A pointer with no entry usable for this root (a publication in flight, or cut
        /// short): not published for this root; what the client holds stays.
        case notUsable
        /// Its pointer could not be read (in the report's problems).
        case failed
    }

    /// One feed: its pointer, the first entry usable for this root, the file brought to it.
    func syncFeed(_ feedID: Int64, root: RootManifest, answer: Result<TransportResponse, ClientError>) async -> FeedOutcome {
        let name = root.pointerName(for: feedID)
        do throws(ClientError) {
            guard let pointer = try readPointer(name, feedID: feedID, answer: answer) else {
                report.notPublished.append(feedID)
                return .notPublished
            }
            guard let entry = root.firstUsable(of: pointer) else {
                report.notPublished.append(feedID)
                return .notUsable
            }
            let local = state.files[entry.file.name]
            if let local, local.entryShard == entry.shard, let applied = local.entryGeneration, entry.generation < applied {
                throw .stalePointer(file: name, shard: entry.shard, generation: entry.generation, applied: applied)
            }
            await sync(entry.file, kind: .feed)
            if state.files[entry.file.name]?.version == entry.file.version {
                state.files[entry.file.name]?.entryShard = entry.shard
                state.files[entry.file.name]?.entryGeneration = entry.generation
            }
            return .published(pointer, entry)
        } catch {
            report.problems.append(SyncProblem(file: SafeName.feed(feedID), error: error))
            return .failed
        }
    }

    /// The pointer `name` from the server's answer: a 304 (asked with the ETag kept from the
    /// last sync) reads the kept body again (and checks it again). Nil when there is none (404).
    private func readPointer(_ name: String, feedID: Int64, answer: Result<TransportResponse, ClientError>) throws(ClientError) -> FeedPointer? {
        let pointerURL = url(of: name)
        let cached = state.pointers[name]
        let response = try answer.get()
        report.bytesInPointers += response.body.count
        let body: Data
        switch response.status {
        case 200:
            body = response.body
        case 304 where cached != nil:
            body = Data((cached?.body ?? "").utf8)
        case 404:
            state.pointers[name] = nil
            return nil
        default:
            throw .httpStatus(url: pointerURL, status: response.status)
        }
        let pointer: FeedPointer
        do throws(ClientError) {
            pointer = try FeedPointer.decode(try verified(body, file: name), name: name, feedID: feedID, url: pointerURL)
        } catch {
            state.pointers[name] = nil
            throw error
        }
        if response.status == 200 {
            state.pointers[name] = response.etag.map { ClientState.CachedPointer(etag: $0, body: String(decoding: body, as: UTF8.self)) }
        }
        return pointer
    }

    /// Brings the catalog to the root's when the client needs it (see ``CatalogCheck``).
    /// Returns whether the local catalog may decide which feeds are published.
    private func syncCatalog(_ root: RootManifest) async -> Bool {
        let published = root.catalog
        let now = Int64(configuration.clock().timeIntervalSince1970)
        guard let reason = reasonToSyncCatalog(published, now: now) else { return true }
        let downloads = report.fullDownloads.count, problems = report.problems.count
        do throws(ClientError) {
            try PublicationNames.checkCatalog(published.file, sha256: published.sha256)
            await sync(published, kind: .catalog)
        } catch {
            report.problems.append(SyncProblem(file: SafeName.catalog, error: error))
        }
        guard report.problems.count == problems else {
            report.catalog = CatalogCheck(action: .failed, reason: reason)
            return false
        }
        state.catalogChecked = now
        let downloaded = report.fullDownloads.count > downloads
        report.catalog = downloaded ? CatalogCheck(action: .downloaded, reason: reason) : CatalogCheck(action: .current, reason: "version \(published.version)")
        return true
    }

    /// Why the catalog is to be synced now, or nil (and `report.catalog` says it is kept):
    /// none held, a followed feed missing from it that was not missing when it was last synced
    /// (``ClientState/catalogAbsent``), following every feed and it changed, or
    /// older than the maximum age. The one held being the published version is synced too
    /// (no download: its stamp is checked).
    private func reasonToSyncCatalog(_ published: ManifestFile, now: Int64) -> String? {
        let local = state.files[SafeName.catalog]
        guard let local, let version = local.version, folder.exists(SafeName.catalog) else { return "missing" }
        if version == published.version, local.schemaVersion == published.schemaVersion { return "version \(version)" }
        // A feed the catalog held did not list either is not a reason: removed from the
        // publication (or never in it), it would make every sync download the catalog.
        if case .only(let ids) = configuration.feeds, let listed = localCatalogFeedIDs().map(Set.init),
            let absent = ids.subtracting(listed).subtracting(state.catalogAbsent ?? []).min()
        {
            return "feed \(absent) is not in the local catalog"
        }
        if configuration.feeds == .all { return "following every feed: the catalog lists them" }
        // Clamped: a negative, infinite or NaN age from an app must not trap.
        let maximum = Int64(max(0, min(configuration.catalogMaxAge, 9e15)).rounded(.down))
        guard let checked = state.catalogChecked else { return "its age is not known" }
        // In whole seconds, so "older than the maximum" is reached at it: a maximum of 0 means
        // whenever it changed, even twice in one second.
        // A time no clock gives (an edited state, a clock gone back) is an unknown age, not a trap.
        let (age, overflow) = now.subtractingReportingOverflow(checked)
        if overflow || age < 0 { return "its age is not known" }
        if age >= maximum { return "\(age) s old, the maximum is \(maximum) s" }
        report.catalog = CatalogCheck(action: .kept, reason: "version \(version) is \(age) s old, the maximum is \(maximum) s; version \(published.version) is published")
        return nil
    }
}
