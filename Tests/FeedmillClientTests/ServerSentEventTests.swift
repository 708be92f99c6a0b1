@testable import FeedmillClient
import Foundation
import Testing

/// The event-stream parser and the live events' decoding (issue 54), by the HTML standard's
/// rules and the client contract's.
struct ServerSentEventTests {
    static func parse(_ chunks: [String]) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return try chunks.flatMap { try parser.feed(Array($0.utf8)) }
    }

    @Test func linesEndInAnyOfTheThreeWaysAndChunksMaySplitAnywhere() throws {
        let text = "event: patch\r\nid: 7\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n: heartbeat\n\nevent: resync\rdata: x\r\r"
        let whole = try Self.parse([text])
        #expect(whole == [ServerSentEvent(type: "patch", data: "{\"a\":\n1}", id: "7"), ServerSentEvent(type: "resync", data: "x", id: "7")])
        // Byte by byte, a CRLF split between chunks included.
        #expect(try Self.parse(text.map { String($0) }) == whole)
        #expect(try Self.parse(["data: no type\n\n"]) == [ServerSentEvent(type: "message", data: "no type", id: nil)])
    }

    @Test func anEventCutShortIsNeverDispatchedAndRetryIsKept() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("retry: 2000\nevent: patch\nid: 3\ndata: {\"feedid\": 1".utf8)).isEmpty)
        #expect(parser.retry == 2000)
    }

    @Test func aLineWithoutEndIsRefusedAtTheCap() {
        var parser = ServerSentEventParser()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        #expect(throws: ServerSentEventParser.Problem.eventTooLarge(ServerSentEventParser.maximumEventBytes)) {
            for _ in 0..<9 { _ = try parser.feed(chunk) }
        }
    }

    @Test func patchPathsAreRFC6901TokensAndOnlyAddAndRemoveOfItemsAreTaken() throws {
        #expect(PatchOperation.unescape("a~1b~0c") == "a/b~c")
        #expect(PatchOperation.unescape("a/b") == nil)
        #expect(PatchOperation.unescape("a~2") == nil)
        #expect(try PatchOperation(["op": "remove", "path": "/items/x~1y"]) == .remove(id: "x/y"))
        #expect(try PatchOperation(["op": "add", "path": "/items/x", "value": ["title": "T", "n": 3, "none": NSNull()]])
            == .add(id: "x", row: ["title": .text("T"), "n": .integer(3), "none": .null]))
        for bad: [String: Any] in [
            ["op": "replace", "path": "/items/x", "value": [:] as [String: Any]], ["op": "add", "path": "/feeds/x", "value": [:] as [String: Any]],
            ["op": "add", "path": "/items/x", "value": ["id": "other"]], ["op": "add", "path": "/items/x", "value": ["flag": true]],
            ["op": "add", "path": "/items/x"],
        ] {
            #expect(throws: LiveEvent.Problem.self) { try PatchOperation(bad) }
        }
    }

    @Test func eventsOfOtherTypesAreIgnoredAndBadDataIsAProblem() throws {
        #expect(try LiveEvent.decode(ServerSentEvent(type: "message", data: "{}", id: nil)) == nil)
        #expect(throws: LiveEvent.Problem.self) { try LiveEvent.decode(ServerSentEvent(type: "patch", data: "not json", id: "1")) }
        #expect(throws: LiveEvent.Problem.self) { try LiveEvent.decode(ServerSentEvent(type: "patch", data: "{\"generation\": 1, \"feedid\": 1}", id: "1")) }
        #expect(throws: LiveEvent.Problem.self) { try LiveEvent.decode(ServerSentEvent(type: "entry", data: "{\"generation\": true, \"feedid\": 1}", id: "1")) }
        let resync = try #require(try LiveEvent.decode(ServerSentEvent(type: "resync", data: "{\"generation\": 4, \"reason\": \"behind\"}", id: "4")))
        #expect(resync.feedID == nil && resync.generation == 4 && resync.reason == "behind")
    }
}
