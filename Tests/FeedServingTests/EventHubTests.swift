@testable import FeedServing
import FeedmillClient
import Foundation
import Testing

@Suite("the event hub, the patch and the request rules")
struct EventHubTests {
    func event(_ feed: Int64, _ generation: Int) -> FeedEvent {
        FeedEvent(kind: .patch, generation: generation, feedID: feed, data: "{\"feedid\":\(feed)}")
    }

    /// A reader that does not keep up gets what its buffer holds, then the end, marked as an
    /// overflow (the server writes a `resync` then); nothing beyond the limit is ever held.
    @Test func aReaderTooSlowIsEndedNotBufferedWithoutLimit() async throws {
        let hub = EventHub(bufferLimit: 3)
        let connection = hub.connect(feeds: [1])
        #expect(hub.connections == 1)
        for generation in 1...10 {
            hub.publish(try rootJSON(generation), events: [event(1, generation), event(2, generation)])
        }
        var received: [String] = []
        for await text in connection.stream { received.append(text) }
        #expect(received.count == 3)
        #expect(received.allSatisfy { $0.contains("\"feedid\":1") })
        let overflowed = connection.overflow.happened.load(ordering: .acquiring)
        #expect(overflowed)
        #expect(hub.connections == 0 && hub.overflows == 1)
    }

    @Test func aFollowerOfOtherFeedsGetsNothingAndHistoryIsAChain() throws {
        let hub = EventHub(bufferLimit: 8, historyLimit: 2)
        let connection = hub.connect(feeds: [7])
        for generation in 1...4 { hub.publish(try rootJSON(generation), events: [event(1, generation)]) }
        hub.disconnect(connection.id)
        let seen = hub.connect(feeds: nil).history
        #expect(seen.map(\.from) == [2, 3] && seen.map(\.generation) == [3, 4])
    }

    @Test func aDeltaBecomesAddAndRemoveOperationsWithEscapedIDs() throws {
        let delta = """
            {"columns":["id","title","pubdate_unix_time"],"deletes":["gone/1"],"feedid":3,"format":"feedmill-delta","format_version":1,\
            "from_version":1,"schema_version":2,"to_content_digest":"sha256:x","to_version":2,"upserts":[["a~b/c","T",5],["d",null,null]]}
            """
        let made = try ItemPatch.make(fromDelta: Array(delta.utf8), feedID: 3)
        #expect(made.fromVersion == 1 && made.toVersion == 2 && made.toContentDigest == "sha256:x")
        #expect(made.operations.count == 3)
        #expect(made.operations[0]["op"] as? String == "remove" && made.operations[0]["path"] as? String == "/items/gone~11")
        #expect(made.operations[1]["path"] as? String == "/items/a~0b~1c")
        #expect((made.operations[1]["value"] as? [String: Any])?["title"] as? String == "T")
        #expect((made.operations[2]["value"] as? [String: Any])?["title"] is NSNull)
        #expect(throws: ItemPatch.Problem.self) { try ItemPatch.make(fromDelta: Array(delta.utf8), feedID: 4) }
        #expect(throws: ItemPatch.Problem.self) { try ItemPatch.make(fromDelta: Array("[]".utf8), feedID: 3) }
    }

    @Test(arguments: [
        ("bytes=0-9", RangeRequest.partial(first: 0, last: 9)), ("bytes=5-", .partial(first: 5, last: 99)), ("bytes=-10", .partial(first: 90, last: 99)),
        ("bytes=90-200", .partial(first: 90, last: 99)), ("bytes=100-", .unsatisfiable), ("bytes=-0", .unsatisfiable), ("bytes=5-1", .whole),
        ("bytes=0-1,3-4", .whole), ("items=0-1", .whole), ("bytes=a-", .whole), ("bytes=-200", .partial(first: 0, last: 99)),
    ])
    func rangesAreReadAsRFC9110Says(header: String, expected: RangeRequest) {
        #expect(RangeRequest(header: header, size: 100) == expected)
    }

    @Test func onlyPlainNamesAreFiles() {
        #expect(PublishedFileName.from(path: "/") == "index.html")
        #expect(PublishedFileName.from(path: "/feed_1.json") == "feed_1.json")
        for path in ["/.feedmill-lock.json", "/../x", "/a/b", "/%2e%2e", "/a b", "", "x", "/.."] {
            #expect(PublishedFileName.from(path: path) == nil, "\(path)")
        }
    }

    @Test func acceptEncodingIsReadAsRFC9110Says() {
        for (header, gzip) in [
            ("gzip", true), ("deflate, gzip;q=0.5", true), ("GZIP", true), ("x-gzip", true), ("*", true), ("br, *;q=0.1", true),
            ("gzip;q=0", false), ("gzip; q=0.000", false), ("*, gzip;q=0", false), ("identity", false), ("", false), ("br", false),
            ("*;q=0", false),
        ] {
            #expect(Gzip.accepted(by: header) == gzip, "\(header)")
        }
        #expect(Gzip.accepted(by: nil) == false)
        let text = Array(String(repeating: "{\"feedid\":1}", count: 200).utf8)
        #expect((Gzip.compress(text)?.count ?? .max) < text.count / 5)
        #expect(Gzip.compress([])?.prefix(2) == [0x1F, 0x8B], "a gzip member even for nothing")
    }
}

/// A format-2 root of one shard at `generation`.
func rootJSON(_ generation: Int) throws -> RootManifest {
    let text = """
        {"catalog":{"content_digest":"sha256:0","file":"all_feeds.sqlite","name":"all_feeds.sqlite","schema_version":2,"sha256":"0","size":1,"version":1},\
        "feed_pointer":"feed_{feedid}.json","format":"feedmill-manifest","format_version":2,"generation":\(generation),\
        "shards":{"1/1":{"generation":\(generation),"publication":"p\(generation)","record":"r"}}}
        """
    return try JSONDecoder().decode(RootManifest.self, from: Data(text.utf8))
}
