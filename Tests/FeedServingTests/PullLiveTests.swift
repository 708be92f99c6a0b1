import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Synchronization
import Testing

/// `rss-pull --live` (issue 54): the reference client on rss-serve's event stream, as real
/// processes. A publication reaches the client's file within seconds as a patch; what the
/// stream cannot give (an invalid patch, a wrong digest, a stream cut mid-event, no server) is
/// a file sync instead, and the folder is always the published rows.
@Suite("rss-pull --live", .serialized)
struct PullLiveTests {
    /// rss-pull --live running, its output in a file.
    final class LivePull {
        let process: Process
        let output: String

        init(_ arguments: [String], in scratch: String) throws {
            output = scratch + "/live-\(UUID().uuidString).log"
            FileManager.default.createFile(atPath: output, contents: nil)
            process = Process()
            process.executableURL = Executable(name: "rss-pull").url
            process.arguments = arguments + ["--live"]
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": scratch, "FEEDMILL_CONFIG": "none"]
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        }

        var text: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }

        func wait(seconds: Double = 15, for predicate: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if predicate(text) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return predicate(text)
        }

        func stop(_ number: Int32 = SIGTERM) -> Int32 {
            kill(process.processIdentifier, number)
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
    }

    /// The snapshot file the publication's pointer names for `feedID` now.
    static func publishedFile(_ out: String, feed feedID: Int) throws -> String {
        let pointer = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/feed_\(feedID).json"))) as? [String: Any])
        let entry = try #require((pointer["entries"] as? [[String: Any]])?.first)
        return out + "/" + (try #require(entry["file"] as? String))
    }

    @Test func aPublicationReachesTheClientsFileAsAPatchWithinSeconds() throws {
        let run = try BinaryRun(feeds: 2, items: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800000000"]).status == 0)
        let scratch = run.root.url.path
        let serve = try ServeProcess(out: run.out, in: scratch, extra: ["--heartbeat", "0.5"])
        let folder = scratch + "/client"
        let live = try LivePull([serve.baseURL + "/", folder], in: scratch)
        #expect(live.wait { $0.contains("live: connected") }, "\(live.text)")
        #expect(FileManager.default.fileExists(atPath: folder + "/feed_1.sqlite"))

        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("live-1", title: "Live / ~ one")], now: 5_000)
        let committed = Date()
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800003600"]).status == 0)
        #expect(live.wait(seconds: 10) { $0.contains("feed_1.sqlite patched") }, "\(live.text)")
        let seconds = Date().timeIntervalSince(committed)
        #expect(seconds < 10, "applied \(seconds) s after the commit (the publication's run included)")
        #expect(try ServeEventsTests.rows(folder + "/feed_1.sqlite") == (try ServeEventsTests.rows(try Self.publishedFile(run.out, feed: 1))))
        #expect(!live.text.contains("files synced ("), "a patch, not a file sync: \(live.text)")
        #expect(live.stop() == 0)

        // The client's state knows the patched version: a plain sync downloads nothing.
        let after = try Executable(name: "rss-pull").runCapturing([serve.baseURL + "/", folder, "--json"])
        let report = try #require(JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        #expect(report["delta_downloads"] as? [String] == [], "\(after.stdout)")
        #expect((report["full_downloads"] as? [String])?.contains("feed_1.sqlite") == false, "\(after.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!names.contains { $0.contains(".tmp.") }, "\(names)")
    }

    /// A hostile stream, served for /events by a test server that serves the publication
    /// honestly otherwise: the client never applies what it cannot check, and its folder ends
    /// as the publication.
    struct StreamCase: CustomTestStringConvertible, Sendable {
        let name: String
        /// The body of /events, given the current entry of feed 1 and the next publication's.
        let body: @Sendable (_ held: [String: Any], _ next: [String: Any], _ operations: [[String: Any]]) -> String
        let says: String
        /// Whether the client syncs the files instead (else it keeps the version it holds).
        var fileSync = true
        var testDescription: String { name }
    }

    static func event(_ kind: String, _ id: Int, _ data: [String: Any]) -> String {
        let json = String(decoding: (try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
        return "event: \(kind)\nid: \(id)\ndata: \(json)\n\n"
    }

    static func patchData(_ next: [String: Any], from held: [String: Any], _ operations: [[String: Any]]) -> [String: Any] {
        var data: [String: Any] = [:]
        for key in ["file", "sha256", "size", "schema_version", "shard", "content_digest"] { data[key] = next[key] }
        data["feedid"] = 1
        data["generation"] = 2
        data["to_version"] = next["version"]
        data["from_version"] = held["version"]
        data["patch"] = operations
        return data
    }

    static let streamCases: [StreamCase] = [
        StreamCase(
            name: "an operation the contract does not give",
            body: { held, next, _ in event("patch", 2, patchData(next, from: held, [["op": "move", "from": "/items/a", "path": "/items/b"]])) },
            says: "not one the contract gives"),
        StreamCase(
            name: "a patch whose result is not the content digest",
            body: { held, next, operations in
                // A whole row, as valid as the real ones, that the publication does not have.
                let row = operations.last { $0["op"] as? String == "add" }?["value"] ?? [:]
                return event("patch", 2, patchData(next, from: held, operations + [["op": "add", "path": "/items/forged", "value": row]]))
            },
            says: "content digest"),
        StreamCase(
            name: "a digest that is not the entry's",
            body: { held, next, operations in
                var data = patchData(next, from: held, operations)
                data["content_digest"] = "sha256:" + String(repeating: "0", count: 64)
                return event("patch", 2, data)
            },
            says: "content digest"),
        StreamCase(
            name: "data that is not JSON", body: { _, _, _ in "event: patch\nid: 2\ndata: {\"feedid\": 1, \"gen\n\n" }, says: "cannot be read"),
        StreamCase(
            name: "a stream cut in the middle of an event",
            body: { held, next, operations in String(event("patch", 2, patchData(next, from: held, operations)).prefix(60)) },
            says: "stream ended", fileSync: false),
        StreamCase(name: "a resync", body: { _, _, _ in "event: resync\nid: 2\ndata: {\"generation\": 2, \"reason\": \"behind\"}\n\n" }, says: "resync"),
    ]

    @Test(arguments: streamCases)
    func whatTheStreamCannotGiveIsAFileSyncAndNothingUncheckedIsApplied(_ streamCase: StreamCase) throws {
        let run = try BinaryRun(feeds: 1, items: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800000000"]).status == 0)
        let scratch = run.root.url.path
        let held = try #require(try Self.firstEntry(run.out))
        try FileManager.default.copyItem(atPath: run.out + "/manifest.json", toPath: scratch + "/root-1.json")
        let server = try HostileTestServer(directory: run.out)
        let folder = scratch + "/client"
        #expect(try Executable(name: "rss-pull").runCapturing([server.baseURL, folder]).status == 0)

        // The next publication, and the patch rss-serve would give for it.
        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("live-1")], now: 5_000)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800003600"]).status == 0)
        let next = try #require(try Self.firstEntry(run.out))
        let delta = try #require((next["deltas"] as? [[String: Any]])?.first?["file"] as? String)
        let document = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: run.out + "/" + delta))) as? [String: Any])
        let columns = try #require(document["columns"] as? [String])
        let operations: [[String: Any]] =
            ((document["deletes"] as? [String]) ?? []).map { ["op": "remove", "path": "/items/" + $0] }
            + ((document["upserts"] as? [[Any]]) ?? []).map { row in
                var value: [String: Any] = [:]
                for (column, cell) in zip(columns.dropFirst(), row.dropFirst()) { value[column] = cell }
                return ["op": "add", "path": "/items/" + ((row.first as? String) ?? ""), "value": value]
            }
        let body = Array(streamCase.body(held, next, operations).utf8)
        // The client's first sync reads the root it already holds (a CDN a moment behind), so it
        // meets the next publication through the stream; every later read gets the current one.
        let oldRoot = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch + "/root-1.json")))
        let rootsServed = Mutex(0)
        server.misbehave { path in
            if path == "/events" { return .reply(status: 200, headers: ["Content-Type: text/event-stream"], body: body) }
            if path == "/manifest.json", rootsServed.withLock({ $0 += 1; return $0 }) == 1 {
                return .reply(status: 200, headers: ["Content-Type: application/json"], body: oldRoot)
            }
            return nil
        }
        let live = try LivePull([server.baseURL, folder], in: scratch)
        #expect(live.wait { $0.contains(streamCase.says) && $0.contains("stream ended") }, "\(live.text)")
        #expect(!live.text.contains("patched"), "nothing unchecked applied: \(live.text)")
        let expected: String
        if streamCase.fileSync {
            #expect(live.wait { $0.contains("live: files synced (") && $0.contains("1 delta(s)") }, "the file synced instead: \(live.text)")
            expected = run.out + "/" + ((next["file"] as? String) ?? "")
        } else {
            #expect(live.wait(seconds: 3) { $0.components(separatedBy: "stream ended").count > 2 }, "\(live.text)")
            #expect(!live.text.contains("live: files synced ("), "\(live.text)")
            expected = run.out + "/" + ((held["file"] as? String) ?? "")
        }
        #expect(live.stop(SIGINT) == 0)
        #expect(try ServeEventsTests.rows(folder + "/feed_1.sqlite") == (try ServeEventsTests.rows(expected)))
        #expect(try sqlite(folder + "/feed_1.sqlite", "SELECT count(*) FROM items WHERE id = 'forged'") == [["0"]])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!names.contains { $0.contains(".tmp.") }, "\(names)")
    }

    /// Feed 1's first pointer entry, as published now.
    static func firstEntry(_ out: String) throws -> [String: Any]? {
        let pointer = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/feed_1.json"))) as? [String: Any]
        return (pointer?["entries"] as? [[String: Any]])?.first
    }

    @Test func withoutAServerItKeepsTryingAndSyncsTheFilesMeanwhile() throws {
        let run = try BinaryRun(feeds: 1, items: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800000000"]).status == 0)
        let scratch = run.root.url.path
        let files = try HostileTestServer(directory: run.out)
        // A port nothing listens on, for the stream.
        let closed = try HostileTestServer(directory: run.out)
        let nowhere = closed.baseURL
        closed.stop()
        let live = try LivePull([files.baseURL, scratch + "/client", "--server", nowhere], in: scratch)
        #expect(live.wait { $0.components(separatedBy: "stream ended").count >= 3 }, "reconnects with backoff: \(live.text)")
        #expect(live.text.contains("cannot connect"), "\(live.text)")
        #expect(FileManager.default.fileExists(atPath: scratch + "/client/feed_1.sqlite"))
        #expect(live.stop() == 0)
    }
}
