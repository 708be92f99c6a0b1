import FeedBasics
import FeedStorage
import Foundation

/// The catalog's pages and title index (issue 51): a client browses or searches a catalog of a
/// million feeds a page or a chunk at a time, and a publication writes only the pages whose
/// feeds' rows changed.
extension PublishRun {
    /// Feeds per page: about 200 KB of JSON for a page of real feeds.
    static let catalogPageSize = 1_000

    /// Writes the pages of the feeds whose rows changed (every page when the change log cannot
    /// say, with `--full`, or after a recovery), the title chunks when a title changed (a feed
    /// added, removed or renamed), and the index; kept in the next record, named by the root.
    func publishCatalogPages(recovering: Bool, _ publication: inout Publication) throws(PublishError) {
        let catalogFeeds = publication.catalogFeeds
        let size = Self.catalogPageSize
        let previous = publication.previous.isRecord && !recovering && !configuration.full ? publication.previous.catalogPages : nil
        let usable = previous.flatMap { $0.document.pageSize == size ? $0 : nil }
        let changedIDs = usable == nil ? nil : publication.reading.listingFeedIDs
        let changedPages = changedIDs.map { Set($0.map { Int($0 / Int64(size)) }) }
        // The previous pages of the changed feeds: their titles then, to tell a title changed.
        var pages = Dictionary((usable?.document.pages ?? []).map { ($0.page, $0) }, uniquingKeysWith: { first, _ in first })
        var titlesChanged = changedPages == nil
        var otherThanLastUpdate = changedPages == nil
        var byPage: [Int: [CatalogFeed]] = [:]
        if catalogFeeds.complete {
            for feed in catalogFeeds.all where feed.feedID >= 0 {
                let page = Int(feed.feedID / Int64(size))
                if changedPages?.contains(page) ?? true { byPage[page, default: []].append(feed) }
            }
        } else if let changedPages {
            // Only the changed pages' feeds are read (``CatalogFeeds``).
            for page in changedPages where page >= 0 {
                // The last page ends at the largest feedid (a feedid written by hand may be it).
                let first = Int64(page) * Int64(size)
                let last = first.addingReportingOverflow(Int64(size) - 1)
                byPage[page] = try rethrowing(
                    try catalogFeeds.feeds(in: first...(last.overflow ? .max : last.partialValue)), as: PublishError.storage)
            }
        }
        for page in (changedPages ?? Set(byPage.keys).union(pages.keys)).sorted() {
            let rows = (byPage[page] ?? []).sorted { $0.feedID < $1.feedID }.map(CatalogPageFeed.init)
            if !titlesChanged || !otherThanLastUpdate {
                let before = pages[page].flatMap { target.read($0.file) }.flatMap { try? JSONDecoder().decode(CatalogPageDocument.self, from: Data($0)) }?.feeds
                titlesChanged = titlesChanged || Dictionary((before ?? []).map { ($0.feedID, $0.about.title) }, uniquingKeysWith: { first, _ in first })
                    != Dictionary(rows.map { ($0.feedID, $0.about.title) }, uniquingKeysWith: { first, _ in first })
                otherThanLastUpdate = otherThanLastUpdate || before?.map { [$0.feedID: $0.about] } != rows.map { [$0.feedID: $0.about] }
            }
            guard !rows.isEmpty else {
                pages[page] = nil
                continue
            }
            let bytes = try PublicationJSON.encode(CatalogPageDocument(page: page, feeds: rows), what: "catalog page \(page)")
            let sha256 = SHA256.hexDigest(bytes)
            let file = PublishedName.catalogPage(page, sha256: sha256).fileName
            try putCatalogFile(bytes, as: file, &publication)
            pages[page] = CatalogPageEntry(page: page, file: file, sha256: sha256, size: bytes.count, count: rows.count)
        }
        publication.onlyLastUpdateMoved = !otherThanLastUpdate
        var titles = usable?.document.titles ?? []
        if titlesChanged || usable == nil {
            let all = catalogFeeds.complete
                ? catalogFeeds.all.map { (feedID: $0.feedID, title: $0.title) } : try rethrowing(try catalog.feedTitles(), as: PublishError.storage)
            titles = try publishTitleChunks(all, &publication)
        }
        let document = CatalogIndexDocument(
            pageSize: size, feedCount: pages.values.reduce(0) { $0 + $1.count }, pages: pages.values.sorted { $0.page < $1.page },
            titles: titles)
        if let usable, usable.document == document {
            publication.next.catalogPages = usable
            return
        }
        let bytes = try PublicationJSON.encode(document, what: "the catalog index")
        let sha256 = SHA256.hexDigest(bytes)
        let file = PublishedName.catalogIndex(sha256: sha256).fileName
        try putCatalogFile(bytes, as: file, &publication)
        publication.next.catalogPages = CatalogPagesKept(index: RootCatalogIndex(file: file, sha256: sha256, size: bytes.count), document: document)
    }

    /// Every titled feed's folded title, sorted, in chunks (``CatalogTitleIndex/chunks(_:prefix:)``);
    /// a chunk already there (same bytes, same name) is not put again.
    private func publishTitleChunks(
        _ feeds: [(feedID: Int64, title: String?)], _ publication: inout Publication
    ) throws(PublishError) -> [CatalogTitlesEntry] {
        let titles = feeds.compactMap { feed in
            feed.title.flatMap { title in
                let key = CatalogTitleIndex.fold(title)
                return key.isEmpty ? nil : CatalogTitle(key: key, feedID: feed.feedID, title: title)
            }
        }.sorted(by: CatalogTitleIndex.precedes)
        var entries: [CatalogTitlesEntry] = []
        for chunk in CatalogTitleIndex.chunks(titles[...]) {
            let bytes = try PublicationJSON.encode(CatalogTitlesDocument(prefix: chunk.prefix, titles: Array(chunk.titles)), what: "a title chunk")
            let sha256 = SHA256.hexDigest(bytes)
            let file = PublishedName.catalogTitles(sha256: sha256).fileName
            try putCatalogFile(bytes, as: file, &publication)
            entries.append(CatalogTitlesEntry(prefix: chunk.prefix, file: file, sha256: sha256, size: bytes.count, count: chunk.titles.count))
        }
        return entries
    }

    private func putCatalogFile(_ bytes: [UInt8], as file: String, _ publication: inout Publication) throws(PublishError) {
        guard try target.putImmutable(bytes, as: file) else { return }
        publication.written.add(file)
        publication.present.insert(file)
        publication.report.filesWritten += 1
        publication.report.bytesWritten += bytes.count
    }
}
