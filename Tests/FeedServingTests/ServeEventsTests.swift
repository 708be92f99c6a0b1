import Foundation
import GRDB
import PipelineTestSupport
import TestSupport
import Testing

/// `GET /events` through real processes: rss-publish commits, rss-serve notices, curl -N reads.
@Suite("rss-serve: live events", .serialized)
struct ServeEventsTests {
    /// Each row of a feed database's items, as text, ordered by id.
    static func rows(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM items ORDER BY id").map { $0.description }
        }
    }

    /// Applies a JSON Patch of the contract's items view to a feed database, in one transaction.
    static func apply(_ patch: [[String: Any]], to path: String) throws {
        try DatabaseQueue(path: path).write { db in
            for operation in patch {
                let pathText = operation["path"] as? String ?? ""
                guard pathText.hasPrefix("/items/") else { throw PatchProblem(what: pathText) }
                let id = String(pathText.dropFirst("/items/".count)).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                switch operation["op"] as? String {
                case "remove":
                    try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [id])
                case "add":
                    let value = operation["value"] as? [String: Any] ?? [:]
                    let columns = value.keys.sorted()
                    let values: [(any DatabaseValueConvertible)?] = [id] + columns.map { column -> (any DatabaseValueConvertible)? in
                        switch value[column] {
                        case let text as String: return text
                        case let number as NSNumber: return number.int64Value
                        default: return nil
                        }
                    }
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO items (id, \(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))",
                        arguments: StatementArguments(values))
                default: throw PatchProblem(what: "\(operation)")
                }
            }
        }
    }

    struct PatchProblem: Error { let what: String }

    /// Every event's data checked against `schemas/event.schema.json` by python3-jsonschema
    /// (no Feedmill code): what an app developer validating the stream would see.
    static func schemaProblems(_ readers: [EventReader], in scratch: String) throws -> String {
        let lines = readers.flatMap { reader in
            reader.text.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        }
        let file = scratch + "/events.jsonl"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../schemas/event.schema.json").standardized.path
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            validator = jsonschema.Draft202012Validator(schema)
            lines = [l for l in open(sys.argv[2]).read().split("\\n") if l]
            bad = [f"{l[:120]}: {e.message}" for l in lines for e in validator.iter_errors(json.loads(l))]
            print("\\n".join(bad) if bad else f"ok {len(lines)}")
            """
        let result = try runToCompletion("/usr/bin/python3", ["-c", script, schema, file])
        return result.status == 0 && result.stdout.hasPrefix("ok ") && result.stdout != "ok 0\n" ? "" : result.stdout + result.stderr
    }

    @Test func aPublicationReachesAConnectedReaderAsAPatchThatGivesThePublishedRows() throws {
        let run = try BinaryRun(feeds: 2, items: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800000000"]).status == 0)
        let scratch = run.root.url.path
        let serve = try ServeProcess(out: run.out, in: scratch, extra: ["--heartbeat", "0.5"])
        let folder = scratch + "/client"
        #expect(try Executable(name: "rss-pull").runCapturing([serve.baseURL + "/", folder]).status == 0)

        let reader = try EventReader(serve.baseURL + "/events?feeds=1", in: scratch)
        #expect(reader.wait { $0.contains { $0.kind == "entry" } }, "\(reader.text)")
        let current = try #require(reader.events.first { $0.kind == "entry" })
        #expect(current.data["feedid"] as? Int == 1 && reader.events.allSatisfy { $0.data["feedid"] as? Int == 1 })
        let generation = current.id
        #expect(reader.wait(seconds: 3) { _ in reader.text.contains(": heartbeat") }, "a heartbeat comment")

        // Both feeds change; the reader follows feed 1 only.
        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("live-1", title: "Live / ~ one")], now: 5_000)
        try ChangedFeed(path: run.data + "/feed_2.sqlite").upsert([entry("live-2")], now: 5_000)
        let committed = Date()
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800003600"]).status == 0)
        #expect(reader.wait(seconds: 5) { $0.contains { $0.kind == "patch" } }, "\(reader.text)")
        let seconds = Date().timeIntervalSince(committed)
        let patch = try #require(reader.events.first { $0.kind == "patch" })
        #expect(patch.id == generation + 1 && patch.data["feedid"] as? Int == 1)
        #expect(patch.data["from_version"] as? Int == current.data["to_version"] as? Int)
        #expect(reader.events.allSatisfy { $0.data["feedid"] as? Int == 1 }, "no event of a feed not followed")
        #expect(seconds < 5, "noticed within the poll interval of the commit (\(seconds) s, the publication's own run included)")

        // The patch applied to the client's copy gives the rows of the published snapshot.
        let operations = try #require(patch.data["patch"] as? [[String: Any]])
        #expect(operations.contains { ($0["path"] as? String)?.contains("live-1") == true })
        let copy = scratch + "/patched.sqlite"
        try FileManager.default.copyItem(atPath: folder + "/feed_1.sqlite", toPath: copy)
        try Self.apply(operations, to: copy)
        let file = try #require(patch.data["file"] as? String)
        #expect(try Self.rows(copy) == (try Self.rows(run.out + "/" + file)))

        // Reconnecting with Last-Event-ID: the missed publication replayed, nothing else.
        let resumed = try EventReader(serve.baseURL + "/events?feeds=1", in: scratch, headers: ["Last-Event-ID: \(generation)"])
        #expect(resumed.wait { $0.contains { $0.kind == "patch" } }, "\(resumed.text)")
        #expect(resumed.events.filter { $0.kind == "entry" }.isEmpty)
        #expect(resumed.events.first { $0.kind == "patch" }?.data["content_digest"] as? String == patch.data["content_digest"] as? String)
        // Up to date: nothing.
        let upToDate = try EventReader(serve.baseURL + "/events?feeds=1", in: scratch, headers: ["Last-Event-ID: \(generation + 1)"])
        usleep(700_000)
        #expect(upToDate.events.isEmpty, "\(upToDate.text)")

        let schemaProblems = try Self.schemaProblems([reader, resumed], in: scratch)
        #expect(schemaProblems.isEmpty, "\(schemaProblems)")

        // SIGTERM with streams open: a graceful stop, the streams ended.
        let stopped = serve.stop()
        #expect(stopped.status == 0 && stopped.seconds < 10, "\(stopped)")
        usleep(300_000)
        #expect(!reader.isRunning, "the stream ended with the server")
    }

    @Test func aRequestForBadFeedsIsRefused() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let serve = try ServeProcess(out: run.out, in: run.root.url.path)
        for query in ["feeds=", "feeds=a", "feeds=1,-2", "feeds=99999999999999999999"] {
            let answer = try curl([serve.baseURL + "/events?" + query])
            #expect(answer.head.hasPrefix("HTTP/1.1 400"), "\(query): \(answer.head)")
        }
        let health = try curl([serve.baseURL + "/healthz"])
        #expect(health.head.hasPrefix("HTTP/1.1 200") && health.body.contains("\"generation\":1"), "\(health)")
        #expect(serve.stop().status == 0)
    }
}

/// A browser's `EventSource`, on a page rss-serve serves, reads the stream as the contract says.
@Suite("rss-serve: EventSource in headless chromium", .serialized)
struct ServeBrowserTests {
    static let page = """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>live</title></head><body><script>
        window.received = [];
        const source = new EventSource('/events?feeds=1');
        for (const kind of ['entry', 'patch', 'resync'])
          source.addEventListener(kind, e => window.received.push({kind, id: e.lastEventId, data: JSON.parse(e.data)}));
        </script></body></html>
        """

    @Test(.enabled(if: HeadlessBrowser.isRequired || HeadlessBrowser.chromium() != nil, "chromium is not installed (Scripts/setup-debian installs it)"))
    func eventSourceReceivesTheEntryThenThePatch() throws {
        let run = try BinaryRun(feeds: 2, items: 2)
        #expect(try run.createAll().status == 0)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800000000"]).status == 0)
        // The operator's own page beside the publication.
        try Self.page.write(toFile: run.out + "/live.html", atomically: true, encoding: .utf8)
        let serve = try ServeProcess(out: run.out, in: run.root.url.path)
        let watch = try HeadlessBrowser.watch(
            serve.baseURL + "/live.html", until: "window.received.some(e => e.kind === 'patch')", value: "window.received", timeout: 60)
        // Once the browser is connected (rss-serve counts it), a publication.
        let deadline = Date().addingTimeInterval(45)
        while Date() < deadline, !(try curl([serve.baseURL + "/healthz"]).body.contains("\"connections\":1")) { usleep(100_000) }
        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("browser-1", title: "Seen in a browser")], now: 5_000)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800003600"]).status == 0)
        let received = try #require(try JSONSerialization.jsonObject(with: watch.result()) as? [[String: Any]])
        #expect(received.first?["kind"] as? String == "entry")
        let patch = try #require(received.first { $0["kind"] as? String == "patch" })
        let data = try #require(patch["data"] as? [String: Any])
        #expect(data["feedid"] as? Int == 1 && patch["id"] as? String == "2", "\(patch)")
        let operations = data["patch"] as? [[String: Any]] ?? []
        #expect(operations.contains { (($0["value"] as? [String: Any])?["title"] as? String) == "Seen in a browser" }, "\(operations)")
        #expect(serve.stop().status == 0)
    }
}
