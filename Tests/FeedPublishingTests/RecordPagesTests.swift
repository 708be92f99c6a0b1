import FeedBasics
@testable import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The publisher's record keeps its feeds in pages of 50 feed ids, each named by its
/// SHA-256 in the record (issue 51: rewritten whole, it was 49 MB at 100,000 feeds): a
/// publication writes the pages whose feeds changed, and a page that is not what the record
/// names makes the record unusable, as a damaged record is.
@Suite("Publication: the record in pages")
struct RecordPagesTests {
    private func pageFiles(_ directory: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            if case .recordPage? = PublishedName(fileName: $0) { return true }
            return false
        })
    }

    @Test func aPublicationWritesThePagesOfTheFeedsThatChanged() throws {
        let publish = try PublishHarness()
        let ids = try publish.harness.add((1...2_600).map { "https://feeds\($0 % 30).example/\($0).xml" })
        for id in [ids[0], ids[1_500], ids[2_599]] { try publish.write(id, [entry("f\(id)-1")]) }
        _ = try publish.publish()
        let record = try publish.manifest()
        let size = RecordPage.size(formatVersion: Manifest.recordFormatVersion)
        let page = { (id: Int64) in Int(id / size) }
        #expect(size == 50)
        #expect(record.feedPages?.map(\.page) == [ids[0], ids[1_500], ids[2_599]].map(page) && record.feedPages?.map(\.count) == [1, 1, 1])
        // The next publication writes again the pages whose entries the first one made (their
        // publication id is known now), then only those of the feeds that changed.
        try publish.write(ids[1_500], [entry("f-again-1")])
        _ = try publish.publish()
        for round in 2...3 {
            let before = try pageFiles(publish.outPath)
            try publish.write(ids[1_500], [entry("f-again-\(round)")])
            _ = try publish.publish()
            let written = try pageFiles(publish.outPath).subtracting(before)
            #expect(written.count == 1 && written.first?.hasPrefix("publisher.1of1.p\(page(ids[1_500])).") == true, "round \(round): \(written)")
        }
        #expect(try publish.manifest().feeds.map(\.feedID) == [ids[0], ids[1_500], ids[2_599]])
        let checked = try ContractCheck.validate([publish.outPath])
        #expect(checked.status == 0, "\(checked.output)")
    }

    /// As a damaged record: the publication stops and says so; `--recover` adopts the newest
    /// intact record (here the one before, kept for the grace period) and goes on.
    @Test func aPageThatIsNotWhatTheRecordNamesStopsThePublicationAndRecoverGoesOn() throws {
        let publish = try PublishHarness()
        publish.retireAfter = 86_400
        try publish.seed(feeds: 3, items: 2)
        _ = try publish.publish()
        // A second record (a feed renamed: the feeds' files stay those of the first), whose
        // page differs from the first's (its entries' publication is known now).
        var feed = try publish.harness.feed(2)
        feed.title = "Feed two"
        try publish.harness.catalog.save(feed)
        _ = try publish.publish()
        let page = try #require(try publish.manifest().feedPages?.first)
        try Data("{\"feeds\":[]}".utf8).write(to: URL(fileURLWithPath: publish.outPath + "/" + page.file))
        let error = #expect(throws: PublishError.self) { try publish.publish() }
        #expect(error?.description.contains("its page \(page.file) is not the one it names") == true, "\(String(describing: error))")
        #expect(error?.description.contains("--recover") == true)
        let recovered: PublishReport
        do {
            recovered = try publish.publish(recover: true)
        } catch {
            Issue.record("recover: \(error)")
            return
        }
        #expect(recovered.rootGeneration != nil && recovered.recovery.first?.contains("recovered generation 1") == true, "\(recovered)")
        #expect(try publish.publish().unchanged)
        #expect(try publish.manifest().feeds.map(\.feedID) == [1, 2, 3])
        let checked = try ContractCheck.validate([publish.outPath])
        #expect(checked.status == 0, "\(checked.output)")
    }

    /// Records of the formats before (2, feeds inline: what the publisher wrote before issue
    /// 51; 3, every stable name and the catalog index's document in the record) are read and
    /// upgraded in place; a record of a format this publisher does not know is refused, as an
    /// older publisher refuses this one's (4).
    @Test(arguments: [2, 3, 4])
    func aRecordOfAFormatBeforeIsReadAndOneOfALaterFormatIsRefused(version: Int) throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 2)
        _ = try publish.publish()
        // This one's record names only the stable names its feeds and catalog do not give, and
        // the catalog index's file, not its document.
        let compact = try ContractTests.recordObject(in: publish.outPath)
        #expect((compact["stable_files"] as? [String]) == [], "\(String(describing: compact["stable_files"]))")
        #expect((compact["catalog_pages"] as? [String: Any])?.keys.sorted() == ["index"])
        let whole = try publish.manifest()
        let document = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try #require(whole.catalogPages?.document)))
        try ContractTests.editRecord(in: publish.outPath) { record in
            record["format_version"] = version
            record["stable_files"] = whole.stableFiles
            var pages = record["catalog_pages"] as? [String: Any]
            pages?["document"] = document
            record["catalog_pages"] = pages
        }
        #expect(try publish.manifest().formatVersion == version && publish.manifest().feedPages == nil)
        try publish.write(2, [entry("after")])
        let upgraded = try publish.publish()
        #expect(upgraded.feedsWritten == 1 && upgraded.recovery.isEmpty, "\(upgraded)")
        let record = try publish.manifest()
        #expect(record.formatVersion == Manifest.recordFormatVersion && record.feedPages?.count == 1 && record.feeds.count == 3)

        #expect(record.stableFiles == whole.stableFiles && record.catalogPages?.document == whole.catalogPages?.document)
        #expect(try publish.publish().unchanged)

        try ContractTests.editRecord(in: publish.outPath) { $0["format_version"] = 6 }
        let error = #expect(throws: PublishError.self) { try publish.publish() }
        #expect(error?.description.contains("format_version 6") == true && error?.description.contains("it writes 5") == true, "\(String(describing: error))")
    }

    /// A format-4 record's pages hold 250 feed ids: read as such (a page of 250 is not "a
    /// page that is not the one it names"), then written again in pages of 50.
    @Test func aFormat4RecordIsReadWithItsOwnPageSize() throws {
        let publish = try PublishHarness()
        let ids = try publish.harness.add((1...700).map { "https://feeds\($0 % 30).example/\($0).xml" })
        let published = [ids[0], ids[60], ids[120], ids[260], ids[699]]
        for id in published { try publish.write(id, [entry("f\(id)-1")]) }
        _ = try publish.publish()
        let feeds = try publish.manifest().feeds
        // The same feeds in pages of 250, as a format-4 publisher wrote them.
        var pages: [[String: Any]] = []
        for (page, members) in Dictionary(grouping: feeds, by: { Int($0.feedID / 250) }).sorted(by: { $0.key < $1.key }) {
            let bytes = try PublicationJSON.encode(RecordPageDocument(page: page, feeds: members.sorted { $0.feedID < $1.feedID }), what: "page")
            let sha256 = SHA256.hexDigest(bytes)
            let file = PublishedName.recordPage(.all, page: page, sha256: sha256).fileName
            try Data(bytes).write(to: URL(fileURLWithPath: publish.outPath + "/" + file))
            pages.append(["page": page, "file": file, "sha256": sha256, "count": members.count])
        }
        #expect(pages.count == 3 && pages.first?["count"] as? Int == 3, "\(pages)")
        try ContractTests.editRecord(in: publish.outPath) { record in
            record["format_version"] = 4
            record["feeds"] = []
            record["feed_pages"] = pages
        }
        #expect(try publish.manifest().feeds == feeds)
        try publish.write(ids[60], [entry("after")])
        let upgraded = try publish.publish()
        #expect(upgraded.feedsWritten == 1 && upgraded.recovery.isEmpty, "\(upgraded)")
        let record = try publish.manifest()
        #expect(record.formatVersion == 5 && record.feeds.map(\.feedID) == published)
        #expect(record.feedPages?.map(\.page) == published.map { Int($0 / 50) }, "\(String(describing: record.feedPages))")
        let checked = try ContractCheck.validate([publish.outPath])
        #expect(checked.status == 0, "\(checked.output)")
    }

    /// A page named again without being written (its feeds unchanged) must hold what the next
    /// record says: after a recovery, the recovered record's own entries (its page holds them
    /// without their publication id) keep that publication, not the recovering one's.
    @Test func aRecoveredRecordsOwnEntriesKeepTheirPublication() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 1)
        _ = try publish.publish()
        let first = try publish.manifest().feeds.map(\.entryPublication)
        #expect(first.allSatisfy { $0 != nil })
        try FileManager.default.removeItem(atPath: publish.outPath + "/manifest.json")
        let recovered = try publish.publish(recover: true)
        #expect(recovered.recovery.first?.contains("recovered generation 1") == true, "\(recovered)")
        #expect(try publish.manifest().feeds.map(\.entryPublication) == first)
        let checked = try ContractCheck.validate([publish.outPath])
        #expect(checked.status == 0, "\(checked.output)")
    }
}
