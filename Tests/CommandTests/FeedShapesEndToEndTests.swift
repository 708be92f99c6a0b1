import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Four shapes real publishers use that Feedmill once missed (issue 50; the fixtures'
/// README), each through what a person and a client see: `rss-inspect --details`, then a
/// server on 127.0.0.1, `rss-create`, `rss-publish`, and the published databases.
@Suite("Feed shapes end to end", .serialized)
struct FeedShapesEndToEndTests {
    let inspect = Executable(name: "rss-inspect")
    let create = Executable(name: "rss-create")
    let publish = Executable(name: "rss-publish")

    static let files = [
        "rss20-enclosure-href.xml", "atom10-link-enclosure-as-text.xml", "rss20-categories-wrapper.xml", "atom10-youtube-videoid-only.xml",
    ]

    /// What each file's items must be: id, enclosures_json, categories_json, as published.
    static let expected: [String: [[String?]]] = [
        "rss20-enclosure-href.xml": [
            ["href-1", #"[{"url":"https://cdn.href-enclosures.example/ep1.mp3","type":"audio/mpeg","length":1234567}]"#, nil],
            // `url` and `href` both: `url`, as RSS says.
            ["href-2", #"[{"url":"https://cdn.href-enclosures.example/ep2.mp3","type":"audio/mpeg","length":2048}]"#, nil],
        ],
        "atom10-link-enclosure-as-text.xml": [
            ["urn:uuid:text-enclosures-1", #"[{"url":"https://cdn.text-enclosures.example/talk.ogg","type":"audio/ogg","length":4096}]"#, nil]
        ],
        "rss20-categories-wrapper.xml": [
            ["wrapped-1", nil, #"[{"term":"photography"},{"term":"harbours","scheme":"https://wrapped-categories.example/places"}]"#],
            ["wrapped-2", nil, #"[{"term":"travel"},{"term":"ferries"}]"#],
        ],
        // Same title, no id, no link: three items, not one.
        "atom10-youtube-videoid-only.xml": [
            ["yt:video:aaaaaaaaaa1", nil, nil], ["yt:video:bbbbbbbbbb2", nil, nil], ["yt:video:ccccccccc-3", nil, nil],
        ],
    ]

    @Test(arguments: files)
    func inspectDetailsReadsTheShape(_ file: String) throws {
        let path = try feedShapesFixtures().appendingPathComponent(file).path
        let result = try inspect.runCapturing(["--details", path])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let items = try #require(document["items"] as? [[String: Any]])
        let expected = try #require(Self.expected[file])
        #expect(items.map { $0["id"] as? String } == expected.map { $0[0] })
        for (item, row) in zip(items, expected) {
            #expect(Self.canonical(item["enclosures"]) == Self.canonical(row[1]), "\(file) \(row[0] ?? "")")
            #expect(Self.canonical(item["categories"]) == Self.canonical(row[2]), "\(file) \(row[0] ?? "")")
        }
    }

    @Test func eachShapeIsStoredAndPublished() throws {
        let folder = try feedShapesFixtures()
        let documents = try Self.files.map { ($0, try Data(contentsOf: folder.appendingPathComponent($0))) }
        let server = try TestHTTPServer { request in
            if request.path == "/list.opml" {
                let outlines = Self.files.map { #"<outline type="rss" text="\#($0)" xmlUrl="/\#($0)"/>"# }.joined()
                return .init(status: 200, contentType: "text/x-opml", body: #"<opml version="2.0"><body>\#(outlines)</body></opml>"#)
            }
            guard let body = documents.first(where: { "/" + $0.0 == request.path })?.1 else {
                return .init(status: 404, contentType: "text/plain", body: "no")
            }
            return .init(status: 200, headers: [("Content-Type", "application/xml")], body: [UInt8](body))
        }
        defer { server.stop() }
        let root = try TemporaryDirectory()
        let data = root.url.path + "/data", out = root.url.path + "/publish"
        let created = try create.runCapturing(
            ["--opml", server.baseURL + "/list.opml", "--data-dir", data, "--allow-private-networks", "--now", "1800000000"])
        #expect(created.status == 0, "\(created.stdout)\(created.stderr)")
        let published = try publish.runCapturing(["--data-dir", data, "--out", out, "--now", "1800000000"])
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        let contract = try ContractArchive()
        try contract.keep(publication: out, label: "feed shapes")
        #expect(try contract.problems().isEmpty)

        let manifest = try PublishHarnessReader.manifest(out)
        let urls = try sqlite(data + "/all_feeds.sqlite", "SELECT feedid, url FROM feeds ORDER BY feedid")
        #expect(urls.count == Self.files.count)
        for row in urls {
            let file = try #require(Self.files.first { row[1]?.hasSuffix("/" + $0) == true })
            let id = try #require(row[0].flatMap { Int64($0) })
            let entry = try #require(manifest.feeds.first { $0.feedID == id })
            let stored = try sqlite(data + "/feed_\(id).sqlite", "SELECT id, enclosures_json, categories_json FROM items ORDER BY id")
            let publishedRows = try sqlite(out + "/" + entry.file, "SELECT id, enclosures_json, categories_json FROM items ORDER BY id")
            #expect(stored == Self.expected[file], "\(file) in the data directory")
            #expect(publishedRows == Self.expected[file], "\(file) as published")
            // Each feed's items are its own: no other file's ids in it.
            let others = Self.expected.filter { $0.key != file }.values.flatMap { $0.map { $0[0] } }
            #expect(publishedRows.allSatisfy { !others.contains($0[0]) })
        }
    }

    /// JSON values compared whatever their key order: a JSON string (as stored) or an array of
    /// objects (as inspect prints it); an empty array and nothing are the same.
    private static func canonical(_ value: Any?) -> String {
        var object: Any? = value
        if let text = value as? String { object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) }
        guard let array = object as? [Any], !array.isEmpty,
            let data = try? JSONSerialization.data(withJSONObject: array, options: [.sortedKeys])
        else { return "none" }
        return String(decoding: data, as: UTF8.self)
    }
}
