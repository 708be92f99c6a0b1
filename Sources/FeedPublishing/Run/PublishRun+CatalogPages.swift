import FeedBasics
import FeedStorage
import Foundation

/// The catalog's pages and title index (issue 51): a client browses or searches a catalog of a
/// million feeds a page or a run at a time, and a publication writes only the pages whose
/// feeds' rows changed, their groups and the index.
extension PublishRun {
    /// Feeds per page: about 50 KB of JSON for a page of real feeds.
    static let catalogPageSize = 250
    /// Pages per page group: a group of 64 pages is about 13 KB, and a million feeds make 63
    /// groups (the index, about 15 KB of them).
    static let catalogGroupSize = 64

    /// Writes the pages of the feeds whose rows changed (every page when the change log cannot
    /// say, with `--full`, or after a recovery) and their groups, the title index when a title
    /// changed (a feed added, removed or renamed), and the index; kept in the next record,
    /// named by the root.
    func publishCatalogPages(recovering: Bool, _ publication: inout Publication) throws(PublishError) {
        let catalogFeeds = publication.catalogFeeds
        let (size, groupSize) = (Self.catalogPageSize, Self.catalogGroupSize)
        let previous = publication.previous.isRecord && !recovering && !configuration.full ? publication.previous.catalogPages : nil
        let usable = previous.flatMap { $0.fits(pageSize: size, groupSize: groupSize) ? $0 : nil }
        let changedIDs = usable == nil ? nil : publication.reading.listingFeedIDs
        let changedPages = changedIDs.map { Set($0.map { Int($0 / Int64(size)) }) }
        // The previous pages of the changed feeds: their titles then, to tell a title changed.
        var pages = Dictionary((usable?.pages ?? []).map { ($0.page, $0) }, uniquingKeysWith: { first, _ in first })
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
        let pagesToWrite = (changedPages ?? Set(byPage.keys).union(pages.keys)).filter { $0 >= 0 }
        for page in pagesToWrite.sorted() {
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
            let put = try putCatalogDocument(CatalogPageDocument(page: page, feeds: rows), what: "catalog page \(page)", &publication) {
                .catalogPage(page, sha256: $0)
            }
            pages[page] = CatalogPageEntry(page: page, file: put.file, sha256: put.sha256, size: put.size, count: rows.count)
        }
        publication.onlyLastUpdateMoved = !otherThanLastUpdate
        let groups = try publishPageGroups(
            pages, changed: Set(pagesToWrite.map { $0 / groupSize }), previous: usable?.document.pageGroups, &publication)
        var (titleGroups, titles, titleCount) = (usable?.document.titleGroups ?? [], usable?.titles ?? [], usable?.document.titleCount ?? 0)
        if titlesChanged || usable == nil {
            let all = catalogFeeds.complete
                ? catalogFeeds.all.map { (feedID: $0.feedID, title: $0.title) } : try rethrowing(try catalog.feedTitles(), as: PublishError.storage)
            (titleGroups, titles, titleCount) = try publishTitleIndex(all, &publication)
        }
        let document = CatalogIndexDocument(
            pageSize: size, groupSize: groupSize, feedCount: groups.reduce(0) { $0 + $1.count }, pageGroups: groups,
            titleCount: titleCount, titleGroups: titleGroups)
        if let usable, usable.document == document {
            publication.next.catalogPages = usable
            return
        }
        let put = try putCatalogDocument(document, what: "the catalog index", &publication) { .catalogIndex(sha256: $0) }
        publication.next.catalogPages = CatalogPagesKept(
            index: RootCatalogIndex(file: put.file, sha256: put.sha256, size: put.size), document: document,
            pages: pages.values.sorted { $0.page < $1.page }, titles: titles)
    }

    /// The page groups: those `changed` names written again from `pages` (every group when
    /// there is no `previous`), the others as they were.
    private func publishPageGroups(
        _ pages: [Int: CatalogPageEntry], changed: Set<Int>, previous: [CatalogPageGroupEntry]?, _ publication: inout Publication
    ) throws(PublishError) -> [CatalogPageGroupEntry] {
        let groupSize = Self.catalogGroupSize
        var groups = Dictionary((previous ?? []).map { ($0.group, $0) }, uniquingKeysWith: { first, _ in first })
        let byGroup = Dictionary(grouping: pages.values) { $0.page / groupSize }
        let toWrite = previous == nil ? Set(byGroup.keys).union(groups.keys) : changed
        for group in toWrite.sorted() {
            let members = (byGroup[group] ?? []).sorted { $0.page < $1.page }
            guard !members.isEmpty else {
                groups[group] = nil
                continue
            }
            let put = try putCatalogDocument(CatalogPageGroupDocument(group: group, pages: members), what: "catalog page group \(group)", &publication) {
                .catalogPageGroup(group, sha256: $0)
            }
            groups[group] = CatalogPageGroupEntry(
                group: group, file: put.file, sha256: put.sha256, size: put.size, pages: members.count, count: members.reduce(0) { $0 + $1.count })
        }
        return groups.values.sorted { $0.group < $1.group }
    }

    /// Every titled feed's folded title, sorted, in runs and groups of runs
    /// (``CatalogTitleIndex/cut(_:)``); a file already there (same bytes, same name) is not put
    /// again.
    private func publishTitleIndex(
        _ feeds: [(feedID: Int64, title: String?)], _ publication: inout Publication
    ) throws(PublishError) -> (groups: [CatalogTitleGroupEntry], titles: [CatalogTitlesEntry], count: Int) {
        let titles = feeds.compactMap { feed in
            feed.title.flatMap { title in
                let key = CatalogTitleIndex.fold(title)
                return key.isEmpty ? nil : CatalogTitle(key: key, feedID: feed.feedID, title: title)
            }
        }.sorted(by: CatalogTitleIndex.precedes)
        let (runs, groupRuns) = CatalogTitleIndex.cut(titles)
        var chunks: [CatalogTitlesEntry] = []
        for run in runs {
            let put = try putCatalogDocument(CatalogTitlesDocument(titles: Array(titles[run])), what: "a title run", &publication) {
                .catalogTitles(sha256: $0)
            }
            let first = titles[run.lowerBound]
            chunks.append(CatalogTitlesEntry(firstKey: first.key, firstFeedID: first.feedID, file: put.file, sha256: put.sha256, size: put.size, count: run.count))
        }
        var groups: [CatalogTitleGroupEntry] = []
        for group in groupRuns {
            let members = Array(chunks[group])
            let put = try putCatalogDocument(CatalogTitleGroupDocument(chunks: members), what: "a title group", &publication) {
                .catalogTitleGroup(sha256: $0)
            }
            groups.append(
                CatalogTitleGroupEntry(
                    firstKey: members[0].firstKey, firstFeedID: members[0].firstFeedID, file: put.file, sha256: put.sha256, size: put.size,
                    chunks: members.count, count: members.reduce(0) { $0 + $1.count }))
        }
        return (groups, chunks, titles.count)
    }

    /// Encodes `document` and puts it under the name its SHA-256 gives (`name`), unless a file
    /// with those bytes is there already; where it is.
    private func putCatalogDocument<Document: Encodable>(
        _ document: Document, what: String, _ publication: inout Publication, name: (String) -> PublishedName
    ) throws(PublishError) -> (file: String, sha256: String, size: Int) {
        let bytes = try PublicationJSON.encode(document, what: what)
        let sha256 = SHA256.hexDigest(bytes)
        let file = name(sha256).fileName
        if try target.putImmutable(bytes, as: file) {
            publication.written.add(file)
            publication.present.insert(file)
            publication.report.filesWritten += 1
            publication.report.bytesWritten += bytes.count
        }
        return (file, sha256, bytes.count)
    }
}
