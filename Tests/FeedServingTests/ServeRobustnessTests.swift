import Foundation
import PipelineTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

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

    /// A reader that connects and never reads: once the kernel's buffers and its own bounded
    /// buffer are full, it is let go (a resync queued, the connection closed when that write is
    /// not taken within the send timeout), counted, and a graceful stop is not held by it; a
    /// reader that does read gets every patch meanwhile.
    @Test func aReaderThatNeverReadsIsClosedNotBufferedWithoutLimit() throws {
        let run = try BinaryRun(feeds: 1, items: 1)
        #expect(try run.createAll().status == 0)
        #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800000000"]).status == 0)
        let scratch = run.root.url.path
        let serve = try ServeProcess(out: run.out, in: scratch, extra: ["--buffer-limit", "2", "--send-timeout", "2"])
        // Connected, the request sent, never a byte read; a small receive buffer so that the kernel holds little.
        let stalled = Process()
        stalled.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        stalled.arguments = ["-c", """
            import socket, sys, time
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", int(sys.argv[1])))
            s.sendall(b"GET /events HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            time.sleep(600)
            """, String(serve.port)]
        try stalled.run()
        // SIGKILL: the runner's children inherit its blocked SIGTERM.
        defer { kill(stalled.processIdentifier, SIGKILL); stalled.waitUntilExit() }
        let reader = try EventReader(serve.baseURL + "/events?feeds=1", in: scratch)
        #expect(reader.wait { $0.contains { $0.kind == "entry" } }, "\(reader.text)")
        // Publications with large patches (2,000 items each) until the stalled reader is let go.
        var closed = false
        var generation = 1
        let summary = String(repeating: "<p>a paragraph of a long summary</p>", count: 20)
        while generation < 12, !closed {
            let entries = (0..<2_000).map { entry("g\(generation)-\($0)", title: "Item \($0)", summary: summary) }
            try ChangedFeed(path: run.data + "/feed_1.sqlite").upsert(entries, now: 5_000 + Int64(generation))
            #expect(try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", String(1_800_000_000 + generation * 60)]).status == 0)
            generation += 1
            #expect(reader.wait(seconds: 10) { $0.filter { $0.kind == "patch" }.count == generation - 1 }, "\(generation)")
            let metrics = try curl([serve.baseURL + "/metrics"]).body
            closed = metrics.contains("feedmill_serve_slow_readers_closed_total 1\n") && metrics.contains("feedmill_serve_connections 1\n")
        }
        #expect(closed, "the reader that never reads was closed after \(generation - 1) publications")
        let health = try curl([serve.baseURL + "/healthz"]).body
        #expect(health.contains("\"connections\":1"), "only the reader that reads is left: \(health)")
        #expect(reader.events.filter { $0.kind == "patch" }.count == generation - 1, "the reader that reads missed nothing")
        // Its last write (the resync) never taken, the connection is closed at the send timeout:
        // nothing holds a graceful stop.
        let stopped = serve.stop()
        #expect(stopped.status == 0 && stopped.seconds < 15, "\(stopped)")
    }
}
