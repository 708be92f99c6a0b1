import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// rss-serve under what a real deployment throws at it: a root damaged underneath it, and
/// thousands of connections opened and dropped at once.
@Suite("rss-serve: damaged roots and dropped connections", .serialized)
struct ServeRobustnessTests {
    /// A root that is not JSON (a disk, a hand, a half-copied sync) is skipped with a warning:
    /// the stream stays open, nothing is sent for it, /healthz keeps the last good generation,
    /// and the next good root is streamed as usual.
    @Test func aDamagedRootIsSkippedAndTheNextGoodOneStreamed() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800000000"]).status == 0)
        let scratch = run.root.url.path
        let serve = try ServeProcess(out: run.out, in: scratch)
        let reader = try EventReader(serve.baseURL + "/events?feeds=1", in: scratch)
        #expect(reader.wait { $0.contains { $0.kind == "entry" } }, "\(reader.text)")

        let root = run.out + "/manifest.json"
        let good = try Data(contentsOf: URL(fileURLWithPath: root))
        for damage in [Data("{\"format\": 2, \"generation\": 9".utf8), Data(), Data(repeating: 0, count: 4096)] {
            try damage.write(to: URL(fileURLWithPath: root + ".tmp"))
            #expect(rename(root + ".tmp", root) == 0)
            usleep(700_000)
            let health = try curl([serve.baseURL + "/healthz"])
            #expect(health.head.hasPrefix("HTTP/1.1 200") && health.body.contains("\"generation\":1"), "\(health)")
            #expect(reader.isRunning && reader.events.count == 1, "\(reader.text)")
        }
        try good.write(to: URL(fileURLWithPath: root + ".tmp"))
        #expect(rename(root + ".tmp", root) == 0)
        try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert([entry("after-damage", title: "After")], now: 5_000)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800003600"]).status == 0)
        #expect(reader.wait(seconds: 5) { $0.contains { $0.kind == "patch" && $0.id == 2 } }, "\(reader.text)\n\(serve.logText)")
        #expect(serve.logText.contains("not a format-2 root"), "the damage was said: \(serve.logText)")
        #expect(serve.stop().status == 0)
    }

    /// 2,000 readers connect and vanish at once (a mobile network dropping a cell's clients):
    /// every connection is let go, none is left counted, and the server answers as before. A
    /// reader that closed without a reset is let go at the next heartbeat's write at the latest
    /// (15 s), hence the deadline.
    @Test func thousandsOfConnectionsOpenedAndDroppedLeaveNothingBehind() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publishAll().status == 0)
        let serve = try ServeProcess(out: run.out, in: run.root.url.path)
        let script = """
            import resource, socket, sys
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            port = int(sys.argv[1])
            sockets = []
            for _ in range(2000):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(b"GET /events?feeds=1 HTTP/1.1\\r\\nHost: x\\r\\nAccept: text/event-stream\\r\\n\\r\\n")
                sockets.append(s)
            for index, s in enumerate(sockets):
                if index % 2:
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00")  # a reset
                s.close()
            print("done")
            """
        let dropped = try runToCompletion("/usr/bin/python3", ["-c", script, String(serve.port)])
        #expect(dropped.stdout == "done\n", "\(dropped.stderr)")
        let deadline = Date().addingTimeInterval(45)
        var health = ""
        repeat {
            health = try curl([serve.baseURL + "/healthz"]).body
            if health.contains("\"connections\":0") { break }
            usleep(200_000)
        } while Date() < deadline
        #expect(health.contains("\"connections\":0"), "every dropped reader let go: \(health)")
        let file = try curl([serve.baseURL + "/manifest.json"])
        #expect(file.head.hasPrefix("HTTP/1.1 200"))
        #expect(serve.stop().status == 0)
    }
}
