import Foundation
import PipelineTestSupport
import TestSupport
import Testing

@Suite("The rss-inspect binary")
struct InspectBinaryTests {
    /// The executable built beside the test bundle by `swift test`, by its link (made by
    /// ``Executable`` when this is the first test to run it: a clean build has none yet).
    static var binary: URL { Executable(name: "rss-inspect").url }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    @Test func printsJSONAndExitsZeroForAFeed() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("small.xml", SampleFeeds.small)
        let result = try run([path])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("{\n  \"format\": \"rss\","))
        #expect(result.stderr.isEmpty)
    }

    @Test func printsTheReaderFieldsWithoutDetailsAndTheDiagnosticsOnlyWithThem() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("media.xml", """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>M</title><link>https://m.example/</link>
            <item><guid>1</guid><author>Ann &lt;ann@m.example&gt;</author><media:group>
            <media:content url="https://m.example/1.mp4" type="video/mp4" duration="61"/><media:thumbnail url="https://m.example/1.jpg"/>
            </media:group></item></channel></rss>
            """)
        let plain = try run([path])
        #expect(plain.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        #expect(Set(document.keys) == ["format", "title", "link", "description", "image_url", "language", "items"])
        let item = try #require((document["items"] as? [[String: Any]])?.first)
        #expect(item["image_url"] as? String == "https://m.example/1.jpg")
        #expect(item["author"] as? String == "Ann")
        #expect(item["authors"] as? [[String: String]] == [["name": "Ann", "email": "ann@m.example"]])
        let enclosure = try #require((item["enclosures"] as? [[String: Any]])?.first)
        #expect(enclosure["url"] as? String == "https://m.example/1.mp4")
        #expect(enclosure["duration"] as? Int == 61)
        #expect(enclosure["length"] == nil, "an absent value's key is left out")
        #expect(item["id_source"] == nil)
        let detailed = try run(["--details", path])
        #expect(detailed.status == 0)
        let detailedItem = try #require(
            ((try JSONSerialization.jsonObject(with: Data(detailed.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])?.first)
        #expect(detailedItem["id_source"] as? String == "native")
        #expect(detailedItem["thumbnail"] == nil)
    }

    @Test func exitsOneWithOneLineOnStderrForSomethingThatIsNotAFeed() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("page.html", "<!doctype html><html><body>x</body></html>")
        let result = try run([path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "rss-inspect: not a feed: found an HTML page\n")
    }

    @Test func aLocalURLNeedsAllowPrivateNetworks() throws {
        let server = try TestHTTPServer { _ in .init(contentType: "application/rss+xml", body: "<rss><channel><title>Local</title></channel></rss>") }
        let refused = try run([server.baseURL + "/feed.xml"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("rss-inspect: cannot fetch \(server.baseURL)/feed.xml: refused to connect to 127.0.0.1"))
        #expect(refused.stderr.hasSuffix("[blocked-address]\n"))
        #expect(server.requests.isEmpty)
        let allowed = try run([server.baseURL + "/feed.xml", "--allow-private-networks", "--summary"])
        #expect(allowed.status == 0)
        #expect(allowed.stdout == "rss 2.0 | Local | 0 items, 0 with permalink, 0 undated | UTF-8 | clean\n")
    }

    @Test func theSizeCapIsAnOption() throws {
        let server = try TestHTTPServer { _ in .init(contentType: "application/rss+xml", body: "<rss><channel><title>" + String(repeating: "x", count: 2 << 20) + "</title></channel></rss>") }
        let refused = try run([server.baseURL + "/big.xml", "--allow-private-networks", "--max-size", "1"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("body larger than 1048576 bytes [too-large]"))
        #expect(try run([server.baseURL + "/big.xml", "--allow-private-networks", "--max-size", "3", "--summary"]).status == 0)
        #expect(try run(["x.xml", "--max-size", "0"]).status == 64)
    }

    @Test func aBadBaseIsAUsageError() throws {
        let result = try run(["x.xml", "--base", "ftp://nope/"])
        #expect(result.status == 64)
    }
}
