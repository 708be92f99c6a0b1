import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Issue 40's first promise, through the real binaries: what a reader shows (enclosures,
/// podcasts' `itunes:*`, Media RSS pictures, categories, several authors, the feed's own
/// description, picture and language) goes from feeds served on 127.0.0.1 through
/// `rss-feeds add`, `rss-update` and `rss-publish` into the published databases, in the
/// documented columns, in a data directory made before these columns existed and migrated in
/// place; and the original clients' queries keep working.
@Suite("Reader fields end to end", .serialized)
struct ReaderFieldsEndToEndTests {
    let feeds = Executable(name: "rss-feeds")
    let update = Executable(name: "rss-update")
    let publish = Executable(name: "rss-publish")

    private func served() throws -> TestHTTPServer {
        let folder = try readerFieldsFixtures()
        let documents = try ["podcast.xml", "media.xml", "atom.xml", "feed.json"].map { name in
            (name, try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        return try TestHTTPServer { request in
            guard let body = documents.first(where: { "/" + $0.0 == request.path })?.1 else {
                return .init(status: 404, contentType: "text/plain", body: "no")
            }
            return .init(status: 200, headers: [("Content-Type", request.path.hasSuffix(".json") ? "application/feed+json" : "application/xml")], body: [UInt8](body))
        }
    }

    @Test func whatAReaderShowsReachesThePublishedDatabasesOfAMigratedDataDirectory() throws {
        let root = try schema1Publication()
        let data = root.url.path + "/data", out = root.url.path + "/publish"
        let server = try served()
        defer { server.stop() }
        for name in ["podcast.xml", "media.xml", "atom.xml", "feed.json"] {
            let added = try feeds.runCapturing(["add", server.baseURL + "/" + name, "--data-dir", data, "--now", "1700003601", "--quiet"])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let updated = try update.runCapturing(
            ["--data-dir", data, "--allow-private-networks", "--now", "1800000000", "--feed", "4", "--feed", "5", "--feed", "6", "--feed", "7"])
        #expect(updated.status == 0, "\(updated.stdout)\(updated.stderr)")
        let published = try publish.runCapturing(["--data-dir", data, "--out", out, "--now", "1800000000"])
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        let manifest = try PublishHarnessReader.manifest(out)
        let contract = try ContractArchive()
        try contract.keep(publication: out, label: "reader fields")
        let problems = try contract.problems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        let file = { (id: Int64) in out + "/" + (manifest.feeds.first { $0.feedID == id }?.file ?? "missing") }
        let readerColumns = "SELECT id, author, image_url, enclosures_json, categories_json, authors_json FROM items ORDER BY id"

        // Podcast: itunes:duration on the first audio enclosure, the type lowercased, length 0
        // unknown, a javascript: enclosure never published, the channel's itunes:author credited
        // where nothing else credits the episode, an itunes:image resolved against the feed's URL.
        #expect(try sqlite(file(4), readerColumns) == [
            [
                "ns-1", "Olive Wren", nil, #"[{"url":"https://cdn.radio.example/ep1.m4a","type":"audio/x-m4a","duration":2400}]"#, nil,
                #"[{"name":"Olive Wren","email":"owl@radio.example"}]"#,
            ],
            [
                "ns-2", "Night Shift Collective", server.baseURL + "/ep2.jpg",
                #"[{"url":"https://cdn.radio.example/ep2.mp3","type":"audio/mpeg","length":48123904,"duration":3723}]"#,
                #"[{"term":"Design"},{"term":"Light","scheme":"https://radio.example/topics"}]"#, #"[{"name":"Night Shift Collective"}]"#,
            ],
        ])
        // Media RSS: media:group's contents resolved against the item's xml:base; both creators.
        #expect(try sqlite(file(5), readerColumns) == [[
            "https://pictures.example/2026/11/harbour.html", "Ana Lima, Ben Ode", "https://pictures.example/2026/11/harbour-large.jpg",
            #"[{"url":"https://pictures.example/2026/11/harbour-large.jpg","type":"image/jpeg"},{"url":"https://pictures.example/2026/11/harbour-clip.mp4","type":"video/mp4","length":1200000,"duration":31}]"#,
            #"[{"term":"harbours"}]"#, #"[{"name":"Ana Lima"},{"name":"Ben Ode"}]"#,
        ]])
        // Atom: term, label and scheme; two authors, one with email and uri.
        #expect(try sqlite(file(6), readerColumns) == [[
            "urn:uuid:carnet-1", "Claire Dumas, Marc Petit", nil, #"[{"url":"https://carnet.example/1.pdf","type":"application/pdf","length":2048}]"#,
            #"[{"term":"terrain","label":"Sur le terrain","scheme":"https://carnet.example/tags"},{"term":"notes"}]"#,
            #"[{"name":"Claire Dumas","email":"claire@carnet.example","uri":"https://carnet.example/claire"},{"name":"Marc Petit"}]"#,
        ]])
        // JSON Feed: attachments (the data: one dropped), tags, authors, image; the title's entity read.
        #expect(try sqlite(file(7), readerColumns) == [[
            "t-1", "Dee Kay", "https://tasks.example/t-1.png",
            #"[{"url":"https://tasks.example/t-1.mp3","type":"audio/mpeg","length":1000,"duration":61}]"#,
            #"[{"term":"release"},{"term":"tasks"}]"#, #"[{"name":"Dee Kay","uri":"https://tasks.example/dee"}]"#,
        ]])
        #expect(try sqlite(file(7), "SELECT title FROM items") == [["Add Task & Sub Tasks"]])

        // The feed's own description, picture and language, on the catalog's about side.
        let catalog = out + "/" + (try #require(manifest.catalog)).file
        #expect(try sqlite(catalog, "SELECT feedid, title, link, description, image_url, language FROM about WHERE feedid >= 4 ORDER BY feedid") == [
            ["4", "Night Shift Radio", "https://radio.example/", "Conversations after midnight.", "https://radio.example/art.jpg", "en-gb"],
            ["5", "Pictures Daily", "https://pictures.example/", "One picture a day", "https://pictures.example/logo.png", nil],
            ["6", "Carnet", "https://carnet.example/", "Notes de terrain", "https://carnet.example/icon.png", "fr"],
            ["7", "Tasks Weekly", "https://tasks.example/", "What we shipped", "https://tasks.example/icon-512.png", "en"],
        ])

        // The original clients' queries, unchanged, on the migrated working files and on every
        // published copy (the fixture's feeds 1-3 were written before these columns existed).
        let original = "select feeds.feedid, url, title from feeds, about where (feeds.feedid = about.feedid)"
        #expect(try sqlite(data + "/all_feeds.sqlite", original).count == 7)
        #expect(try sqlite(catalog, original).count == 7)
        #expect(try sqlite(out + "/all_feeds.sqlite", original).count == 7)
        for feed in manifest.feeds {
            let items = "SELECT id, title, summary, pubdate_unix_time, permalink FROM items"
            #expect(try sqlite(out + "/" + feed.file, items).count == feed.itemCount)
            #expect(try sqlite(out + "/feed_\(feed.feedID).sqlite", items).count == feed.itemCount)
            #expect(try sqlite(data + "/feed_\(feed.feedID).sqlite", items).count == feed.itemCount)
            #expect(feed.schemaVersion == Snapshot.feedSchemaVersion)
        }
    }
}
