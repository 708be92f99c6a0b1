import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A feed's pointer carries what a reader shows for it (issue 51), as the catalog has it, with
/// no link that is not http(s); it is rewritten when that changes, and only then.
@Suite("Publication: the pointer's about")
struct PointerAboutTests {
    private func about(_ publish: PublishHarness, _ id: Int64) throws -> [String: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: publish.outPath + "/feed_\(id).json"))
        let pointer = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(pointer["about"] as? [String: String])
    }

    @Test func thePointerCarriesTheCatalogsRowWithoutUnsafeLinks() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 2)
        var feed = try publish.harness.feed(1)
        feed.link = "javascript:alert(1)"
        feed.about.imageURL = "https://img.example/1.png"
        feed.about.description = "About one"
        feed.about.language = "en"
        try publish.harness.catalog.save(feed)
        _ = try publish.publish()
        #expect(try about(publish, 1) == [
            "url": "https://feeds.example/1.xml", "title": "Feed 1", "image_url": "https://img.example/1.png", "description": "About one", "language": "en",
        ])
        #expect(try about(publish, 2) == ["url": "https://feeds.example/2.xml", "title": "Feed 2"])
        let checked = try ContractCheck.validate([publish.outPath + "/feed_1.json", publish.outPath + "/feed_2.json"])
        #expect(checked.status == 0, "\(checked.output)")

        // Nothing changed: no pointer written. A description changed: that feed's pointer only.
        let quiet = try publish.publish()
        #expect(quiet.pointersWritten == 0 && quiet.unchanged, "\(quiet)")
        feed.about.description = "About one, again"
        try publish.harness.catalog.save(feed)
        let described = try publish.publish()
        #expect(described.pointersWritten == 1 && described.feedsWritten == 0, "\(described)")
        #expect(try about(publish, 1)["description"] == "About one, again")
    }
}
