/// Publication format 1 (and 0): one manifest lists the catalog and every feed; the catalog is
/// synced whenever its version changed, the followed feeds it lists are synced, and the files
/// of feeds it no longer lists are removed.
extension SyncSession {
    func syncFormat1(_ manifest: PublicationManifest) async {
        var names = Set<String>()
        if let catalog = manifest.catalog, !shouldStop {
            names.insert(catalog.name)
            let downloads = report.fullDownloads.count, problems = report.problems.count
            await sync(catalog, kind: .catalog)
            let reason = "format 1 names it in every manifest"
            report.catalog =
                report.problems.count > problems
                ? CatalogCheck(action: .failed, reason: reason)
                : CatalogCheck(action: report.fullDownloads.count > downloads ? .downloaded : .current, reason: reason)
        }
        let followed = manifest.feeds.filter { $0.feedID.map(configuration.feeds.includes) ?? false }
        // A followed feed still published keeps the file under its own name, even when its
        // entry is refused (named otherwise): removal is for feeds that left.
        var kept = Set(followed.compactMap { $0.feedID.map(SafeName.feed) })
        filesToSync = followed.count
        tellProgress()
        for feed in followed {
            guard !shouldStop else {
                report.left.append(feed.name)
                continue
            }
            defer { fileDone(feed.name) }
            guard names.insert(feed.name).inserted else {
                report.problems.append(SyncProblem(file: feed.name, error: .unsafeName(feed.name + " (named twice in the manifest)")))
                continue
            }
            await sync(feed, kind: .feed)
        }
        kept.formUnion(names)
        if !shouldStop { removeFeeds(keeping: kept) }
        report.notPublished = notPublished(manifest)
    }

    /// Followed feeds the local catalog lists that the manifest does not publish.
    private func notPublished(_ manifest: PublicationManifest) -> [Int64] {
        guard manifest.catalog != nil, let listed = localCatalogFeedIDs() else { return [] }
        let published = Set(manifest.feeds.compactMap(\.feedID))
        return listed.filter { configuration.feeds.includes($0) && !published.contains($0) }
    }
}
