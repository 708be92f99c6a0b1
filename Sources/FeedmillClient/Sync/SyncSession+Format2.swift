import Foundation

/// Publication format 2: the root names the catalog and each shard's last commit; each
/// followed feed's pointer is fetched (revalidated with its ETag) and its first entry usable
/// for this root is synced. Feeds without one are "not yet published": their local files are
/// kept and the next sync tries again. Files of feeds the catalog no longer lists, or no longer
/// followed, are removed.
extension SyncSession {
    func syncFormat2(_ root: RootManifest) async {
        let catalogReady = await syncCatalog(root)
        let listed = localCatalogFeedIDs()
        let followed: [Int64]
        switch configuration.feeds {
        case .all: followed = listed ?? []
        case .only(let ids): followed = listed.map { Set($0).intersection(ids) }.map(Array.init) ?? Array(ids)
        }
        for feedID in followed.sorted() {
            await syncFeed(feedID, root: root)
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
        removeFeeds(keeping: kept)
        report.notPublished.sort()
    }

    /// One feed: its pointer, the first entry usable for this root, the file brought to it.
    private func syncFeed(_ feedID: Int64, root: RootManifest) async {
        let name = root.pointerName(for: feedID)
        do throws(ClientError) {
            guard let pointer = try await fetchPointer(name, feedID: feedID), let entry = root.firstUsable(of: pointer) else {
                report.notPublished.append(feedID)
                return
            }
            await sync(entry.file, kind: .feed)
        } catch {
            report.problems.append(SyncProblem(file: SafeName.feed(feedID), error: error))
        }
    }

    /// The pointer `name`: asked with the ETag kept from the last sync, so an unchanged one is
    /// a 304 and its kept body is read again (and checked again). Nil when there is none (404).
    private func fetchPointer(_ name: String, feedID: Int64) async throws(ClientError) -> FeedPointer? {
        let pointerURL = url(of: name)
        let cached = state.pointers[name]
        let response = try await fetch(TransportRequest(url: pointerURL, ifNoneMatch: cached?.etag))
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
            pointer = try FeedPointer.decode(body, name: name, feedID: feedID, url: pointerURL)
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
    /// none held, a followed feed missing from it, following every feed and it changed, or
    /// older than the maximum age. The one held being the published version is synced too
    /// (no download: its stamp is checked).
    private func reasonToSyncCatalog(_ published: ManifestFile, now: Int64) -> String? {
        let local = state.files[SafeName.catalog]
        guard let local, let version = local.version, folder.exists(SafeName.catalog) else { return "missing" }
        if version == published.version, local.schemaVersion == published.schemaVersion { return "version \(version)" }
        if case .only(let ids) = configuration.feeds, let listed = localCatalogFeedIDs().map(Set.init),
            let absent = ids.subtracting(listed).min()
        {
            return "feed \(absent) is not in the local catalog"
        }
        if configuration.feeds == .all { return "following every feed: the catalog lists them" }
        // Clamped: a negative, infinite or NaN age from an app must not trap.
        let maximum = Int64(max(0, min(configuration.catalogMaxAge, 9e15)).rounded(.down))
        guard let checked = state.catalogChecked else { return "its age is not known" }
        let age = now - checked
        if age > maximum { return "\(age) s old, the maximum is \(maximum) s" }
        report.catalog = CatalogCheck(action: .kept, reason: "version \(version) is \(age) s old, the maximum is \(maximum) s; version \(published.version) is published")
        return nil
    }
}
