import FeedBasics
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Read state across devices (issue 54) through real processes: rss-pull on three devices
/// (ann's phone and laptop, bob's) against rss-serve's /v1/state. No mark lost, none seen by
/// the wrong user, the token's refusal and the server's 500 and 429 lose nothing, a damaged
/// local state database is rebuilt without touching the feeds' files.
@Suite("rss-pull: reading state with rss-serve", .serialized)
struct PullReadingStateTests {
    final class Devices {
        let server: ReadingStateServeTests.Server
        let scratch: String

        init() throws {
            server = try ReadingStateServeTests.Server()
            scratch = server.run.root.url.path
            for (device, token) in [("phone", "ann-phone"), ("laptop", "ann-laptop"), ("bob", "bob-token"), ("wrong", "not-a-token")] {
                try token.write(toFile: scratch + "/\(device).token", atomically: true, encoding: .utf8)
            }
        }

        func folder(_ device: String) -> String { scratch + "/" + device }

        /// rss-pull for `device`, against rss-serve (or `url`).
        func pull(_ device: String, _ extra: [String] = [], url: String? = nil, server stateServer: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
            var arguments = [url ?? server.serve.baseURL + "/", folder(device), "--token-file", scratch + "/\(device == "phone2" ? "phone" : device).token"]
            if let stateServer { arguments += ["--server", stateServer] }
            return try Executable(name: "rss-pull").runCapturing(arguments + extra)
        }

        /// The device's marks as its database holds them: `feedid/id` → "read=1@t starred=0@t".
        func marks(_ device: String) throws -> [String: String] {
            let rows = try sqlite(
                folder(device) + "/.feedmill-reading-state.sqlite",
                "SELECT feedid || '/' || id, coalesce(read, '-'), coalesce(starred, '-') FROM marks ORDER BY 1")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] ?? "", "read=\($0[1] ?? "") starred=\($0[2] ?? "")") })
        }

        func pending(_ device: String) throws -> String? {
            try sqlite(folder(device) + "/.feedmill-reading-state.sqlite", "SELECT count(*) FROM marks WHERE read_pending = 1 OR starred_pending = 1").first?.first ?? nil
        }
    }

    @Test func twoDevicesEditingOfflineLoseNoMarkAndAnotherUserSeesNone() throws {
        let devices = try Devices()
        // Both of ann's devices set marks offline (before any state sync), on different items
        // and fields; then each syncs, twice, in turn.
        let first = try devices.pull("phone", ["--mark", "1:read:item-a", "--mark", "1:star:https://x.example/b:c"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("reading state: 2 mark(s) sent"), "\(first.stdout)")
        let laptop = try devices.pull("laptop", ["--mark", "1:star:item-a"])
        #expect(laptop.status == 0, "\(laptop.stderr)")
        #expect(try devices.pull("phone").status == 0)
        let expected = ["1/item-a": "read=1 starred=1", "1/https://x.example/b:c": "read=- starred=1"]
        #expect(try devices.marks("phone") == expected)
        #expect(try devices.marks("laptop") == expected)
        #expect(try devices.pending("phone") == "0" && devices.pending("laptop") == "0")

        // A later change on one device wins on both.
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try devices.pull("laptop", ["--mark", "1:unread:item-a"]).status == 0)
        #expect(try devices.pull("phone").status == 0)
        #expect(try devices.marks("phone")["1/item-a"] == "read=0 starred=1")

        // Bob sees none of ann's marks; his own reach only his devices.
        let bob = try devices.pull("bob", ["--mark", "1:read:item-z"])
        #expect(bob.status == 0, "\(bob.stderr)")
        #expect(try devices.marks("bob") == ["1/item-z": "read=1 starred=-"])
        #expect(try devices.pull("phone").status == 0)
        #expect(try devices.marks("phone")["1/item-z"] == nil)
    }

    @Test func aRefusedTokenOrAServerThatFailsLosesNoMark() throws {
        let devices = try Devices()
        let refused = try devices.pull("wrong", ["--mark", "1:read:item-a"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("token was refused (401)"), "\(refused.stderr)")
        #expect(try devices.pending("wrong") == "1")

        // A server that answers 500, then 429 with Retry-After: the marks stay to be sent.
        let hostile = try HostileTestServer(directory: devices.server.run.out)
        for (status, says) in [(500, "HTTP 500"), (429, "try again in 7 s")] {
            hostile.misbehave { path in
                path == "/v1/state" ? .reply(status: status, headers: ["Retry-After: 7", "Content-Type: application/json"], body: Array("{}".utf8)) : nil
            }
            let failed = try devices.pull("phone", ["--mark", "1:read:item-\(status)"], server: hostile.baseURL)
            #expect(failed.status == 1, "\(failed)")
            #expect(failed.stderr.contains("marks not synced (kept for the next run)") && failed.stderr.contains(says), "\(failed.stderr)")
        }
        #expect(try devices.pending("phone") == "2")
        // The real server, next time: both sent, and on the other device.
        let sent = try devices.pull("phone")
        #expect(sent.stdout.contains("2 mark(s) sent"), "\(sent.stdout)")
        #expect(try devices.pull("laptop").status == 0)
        #expect(try devices.marks("laptop").keys.sorted() == ["1/item-429", "1/item-500"])
    }

    @Test func aDamagedStateDatabaseIsRebuiltFromTheServerAndTheFeedsFilesAreUntouched() throws {
        let devices = try Devices()
        #expect(try devices.pull("phone", ["--mark", "1:read:item-a"]).status == 0)
        let folder = devices.folder("phone")
        let feedFiles = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sqlite") && !$0.hasPrefix(".") }
        #expect(!feedFiles.isEmpty)
        let before = feedFiles.map { FileManager.default.contents(atPath: folder + "/" + $0) }
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: folder + "/.feedmill-reading-state.sqlite"))
        let after = try devices.pull("phone")
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains("was unreadable and was rebuilt"), "\(after.stdout)")
        #expect(try devices.marks("phone") == ["1/item-a": "read=1 starred=-"], "the server's marks came back")
        #expect(feedFiles.map { FileManager.default.contents(atPath: folder + "/" + $0) } == before)
    }
}
