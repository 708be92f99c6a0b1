import FeedPipeline
import FeedFetching
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

@Suite("rss-inspect: one JSON document per feed")
struct InspectorTests {
    static let smallFeed = SampleFeeds.small

    @Test(.enabled(if: InstalledTool.exists("/usr/bin/sha256sum"), "sha256sum is not installed (Debian package coreutils)"))
    func rendersExactlyTheDocumentedKeysInOrder() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("small.xml", Self.smallFeed)
        let json = try Inspector.inspect(.file(path: path), baseOverride: nil, style: .json, configuration: .default)
        let hashID = "urn:feedmill:entry:" + String(try sha("No date \"quoted\"\u{1F}\u{1F}").prefix(32))
        let expected = """
            {
              "format": "rss",
              "title": "Small & Fine",
              "link": "https://small.example/",
              "description": null,
              "image_url": null,
              "language": null,
              "items": [
                {
                  "id": "h-1",
                  "permalink": "https://small.example/hello",
                  "title": "Hello",
                  "summary": "<p>Hi <a href=\\"https://small.example/there\\">there</a></p>",
                  "pubdate_unix_time": 1240356720,
                  "updated_unix_time": null,
                  "author": "Ann",
                  "image_url": null,
                  "enclosures": [],
                  "categories": [],
                  "authors": [
                    {
                      "name": "Ann",
                      "email": "a@b.c"
                    }
                  ]
                },
                {
                  "id": "\(hashID)",
                  "permalink": null,
                  "title": "No date \\"quoted\\"",
                  "summary": "",
                  "pubdate_unix_time": null,
                  "updated_unix_time": null,
                  "author": null,
                  "image_url": null,
                  "enclosures": [],
                  "categories": [],
                  "authors": []
                }
              ]
            }

            """
        #expect(json == expected)
        // And it is valid JSON.
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((object?["items"] as? [Any])?.count == 2)
    }

    /// Without --details, what the databases store: the feed's about side and each item's
    /// reader fields, objects with the stored JSON's keys in its order and absent ones left out.
    @Test func printsTheReaderFieldsTheDatabaseStores() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("podcast.xml", """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Pod</title>
            <link>https://pod.example/</link><description>All about &lt;b&gt;pods&lt;/b&gt;</description><language>en</language>
            <itunes:image href="/art.png"/><item><guid>e1</guid><itunes:author>Host</itunes:author><itunes:duration>2:00</itunes:duration>
            <enclosure url="/e1.mp3" type="audio/mpeg" length="0"/><category domain="d">News</category>
            <itunes:image href="https://pod.example/e1.png"/></item></channel></rss>
            """)
        let json = try Inspector.inspect(.file(path: path), baseOverride: nil, style: .json, configuration: .default)
        let expected = """
            {
              "format": "rss",
              "title": "Pod",
              "link": "https://pod.example/",
              "description": "All about pods",
              "image_url": "https://pod.example/art.png",
              "language": "en",
              "items": [
                {
                  "id": "e1",
                  "permalink": null,
                  "title": "",
                  "summary": "",
                  "pubdate_unix_time": null,
                  "updated_unix_time": null,
                  "author": "Host",
                  "image_url": "https://pod.example/e1.png",
                  "enclosures": [
                    {
                      "url": "https://pod.example/e1.mp3",
                      "type": "audio/mpeg",
                      "duration": 120
                    }
                  ],
                  "categories": [
                    {
                      "term": "News",
                      "scheme": "d"
                    }
                  ],
                  "authors": [
                    {
                      "name": "Host"
                    }
                  ]
                }
              ]
            }

            """
        #expect(json == expected)
        let details = try Inspector.inspect(.file(path: path), baseOverride: nil, style: .details, configuration: .default)
        #expect(details.contains("\"id_source\": \"native\""))
        #expect(!details.contains("\"thumbnail\""), "the image is in the main output now")
        #expect(details.components(separatedBy: "\"enclosures\"").count == 2, "printed once, not again among the details")
    }

    @Test func baseOverridesWhereRelativeLinksResolve() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("relative.xml", "<rss><channel><item><guid>1</guid><link>p/1</link></item></channel></rss>")
        let json = try Inspector.inspect(.file(path: path), baseOverride: "https://base.example/feeds/", style: .json, configuration: .default)
        #expect(json.contains("\"permalink\": \"https://base.example/feeds/p/1\""))
    }

    @Test func aURLIsFetchedAndLinksResolveAgainstTheFinalURL() throws {
        let server = try TestHTTPServer { request in
            if request.path == "/old" { return .init(status: 301, headers: [("Location", "/blog/feed.xml")]) }
            return .init(contentType: "application/rss+xml", body: "<rss><channel><item><guid>1</guid><link>post.html</link></item></channel></rss>")
        }
        var configuration = FetchConfiguration()
        configuration.networkPolicy = .allowAll
        let json = try Inspector.inspect(.url(server.baseURL + "/old"), baseOverride: nil, style: .json, configuration: configuration)
        #expect(json.contains("\"permalink\": \"\(server.baseURL)/blog/post.html\""))
    }

    @Test func detailsAddDiagnosticsAndEncoding() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("broken.xml", "<rss><channel><item><title>A</titl><guid>1</guid></item></channel></rss>")
        let json = try Inspector.inspect(.file(path: path), baseOverride: nil, style: .details, configuration: .default)
        #expect(json.contains("\"encoding\": \"UTF-8\""))
        #expect(json.contains("Opening and ending tag mismatch"))
        #expect(json.contains("\"id_source\": \"native\""))
    }

    @Test func summaryIsOneLine() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("small.xml", Self.smallFeed)
        let line = try Inspector.inspect(.file(path: path), baseOverride: nil, style: .summary, configuration: .default)
        #expect(line == "rss 2.0 | Small & Fine | 2 items, 1 with permalink, 1 undated | UTF-8 | clean\n")
    }

    @Test func failuresAreOneLine() throws {
        let directory = try TemporaryDirectory()
        let html = try directory.write("page.html", "<html><body>Hello</body></html>")
        #expect { try Inspector.inspect(.file(path: html), baseOverride: nil, style: .json, configuration: .default) } throws: { error in
            "\(error)" == "not a feed: found an HTML page"
        }
        #expect { try Inspector.inspect(.file(path: "/no/such/feed.xml"), baseOverride: nil, style: .json, configuration: .default) } throws: { error in
            "\(error)" == "cannot read /no/such/feed.xml: no such file"
        }
    }

    @Test func sourcesAreRecognised() {
        #expect(FeedSource("https://e.com/feed") == .url("https://e.com/feed"))
        #expect(FeedSource("HTTP://e.com/feed") == .url("HTTP://e.com/feed"))
        #expect(FeedSource("feeds/a.xml") == .file(path: "feeds/a.xml"))
        #expect(FeedSource("file:///tmp/a.xml") == .file(path: "/tmp/a.xml"))
    }

    private func sha(_ text: String) throws -> String {
        // The documented hash input: title, date text and summary joined by U+001F.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let result = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(result.prefix(64))
    }
}
