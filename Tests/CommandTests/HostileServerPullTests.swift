import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// `rss-pull` against a server that misbehaves on purpose (issue 52): bodies without end, gzip
/// bombs, a byte at a time, headers then silence, redirect loops, lengths that lie. Each run is
/// a real process measured by the kernel alone: it ends by itself within its deadline, stays
/// under 64 MB, says what went wrong in words, leaves the folder as it was, and writes nothing
/// outside it (its HOME stays empty).
@Suite("rss-pull against a hostile server", .serialized)
struct HostileServerPullTests {
    /// A 256 MiB run of zeros, gzipped: 4 × the memory a client may use, a few hundred KB on the
    /// wire. Made once per test process by the system's gzip.
    static let bomb: Result<[UInt8], any Error> = Result {
        let made = try runToCompletion("/bin/sh", ["-c", "head -c 268435456 /dev/zero | gzip -c -1 | base64 -w0"])
        guard made.status == 0, let bytes = Data(base64Encoded: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw PullFailed(message: "no gzip bomb: \(made.stderr)")
        }
        return [UInt8](bytes)
    }

    struct PullFailed: Error { let message: String }

    static let memoryLimit = 64 << 20
    static let timeout = 3.0

    /// A format-2 publication of three feeds made by the real commands, served by a hostile
    /// server, and a client folder that holds its first sync.
    final class Setting {
        let run: BinaryRun
        let server: HostileTestServer
        let scratch: TemporaryDirectory
        var folder: String { scratch.url.path + "/folder" }
        var home: String { scratch.url.path + "/home" }

        init() throws {
            run = try BinaryRun(feeds: 3, items: 2)
            _ = try run.createAll()
            let published = try run.publish.runCapturing(["--data-dir", run.data, "--out", run.out, "--now", "1800000000"])
            guard published.status == 0 else { throw PullFailed(message: published.stderr) }
            server = try HostileTestServer(directory: run.out)
            scratch = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        }

        /// rss-pull as a person runs it, with an empty HOME and nothing else inherited.
        func pull(feeds: [Int] = []) throws -> MeasuredRun {
            try MeasuredRun.run(
                Executable(name: "rss-pull").url.path,
                [server.baseURL, folder, "--timeout", "\(HostileServerPullTests.timeout)"] + feeds.flatMap { ["--feed", "\($0)"] },
                environment: ["HOME": home, "PATH": "/usr/bin:/bin", "FEEDMILL_CONFIG": "none", "XDG_CACHE_HOME": home + "/.cache",
                    "XDG_DATA_HOME": home + "/.local/share"])
        }

        /// Every file of the folder with its bytes.
        func snapshot() -> [String: Data] {
            var files: [String: Data] = [:]
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                files[name] = FileManager.default.contents(atPath: folder + "/" + name)
            }
            return files
        }
    }

    /// One hostile answer: where, what, and the words the refusal must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let paths: @Sendable (String) -> Bool
        let misbehaviour: @Sendable () throws -> HostileTestServer.Misbehaviour
        let says: String
        var testDescription: String { name }
    }

    static func root(_ path: String) -> Bool { path == "/manifest.json" }
    static func pointer(_ path: String) -> Bool { path.hasPrefix("/feed_") && path.hasSuffix(".json") && !path.contains(".delta") }
    static func object(_ path: String) -> Bool { path.hasSuffix(".sqlite") || path.contains(".delta") }

    static let cases: [Case] = [
        Case(name: "an endless root", paths: root, misbehaviour: { .endless(chunk: Array(repeating: 0x20, count: 65_536)) }, says: "larger than 16777216 bytes"),
        Case(name: "a gzip bomb as the root", paths: root, misbehaviour: { .reply(status: 200, headers: ["Content-Encoding: gzip"], body: try bomb.get()) },
            says: "larger than 16777216 bytes"),
        Case(name: "a gzip bomb as every pointer", paths: pointer,
            misbehaviour: { .reply(status: 200, headers: ["Content-Encoding: gzip"], body: try bomb.get()) }, says: "larger than 1048576 bytes"),
        Case(name: "a pointer announcing 10 GB", paths: pointer,
            misbehaviour: { .reply(status: 200, headers: ["Content-Length: 10000000000"], body: Array("{}".utf8)) }, says: "larger than 1048576 bytes"),
        Case(name: "a gzip bomb as every object", paths: object,
            misbehaviour: { .reply(status: 200, headers: ["Content-Encoding: gzip"], body: try bomb.get()) }, says: "the most expected of it"),
        Case(name: "512 MiB appended to every object", paths: object, misbehaviour: { .appended(extra: 512 << 20) }, says: "the most expected of it"),
        Case(name: "an endless object", paths: object, misbehaviour: { .endless(chunk: Array(repeating: 0, count: 65_536)) }, says: "the most expected of it"),
        Case(name: "a root dripping a byte every half second", paths: root, misbehaviour: { .drip(interval: 0.5) }, says: "within 3 s"),
        Case(name: "an object dripping a byte every half second", paths: object, misbehaviour: { .drip(interval: 0.5) }, says: "within 3 s"),
        Case(name: "a root whose headers come and then nothing", paths: root, misbehaviour: { .stall(length: 1000) }, says: "within 3 s"),
        Case(name: "a redirect loop", paths: root, misbehaviour: { .redirect(location: "/manifest.json") }, says: "more than 5 redirects"),
        Case(name: "a redirect out of http", paths: root, misbehaviour: { .redirect(location: "file:///etc/passwd") }, says: "not http or https"),
        Case(name: "a root cut short", paths: root,
            misbehaviour: { .reply(status: 200, headers: ["Content-Length: 5000"], body: Array("{\"format\":".utf8)) }, says: "closed before"),
    ]

    @Test(arguments: cases)
    func aHostileAnswerIsStoppedInBoundsAndLeavesTheFolderAsItWas(_ hostile: Case) throws {
        let setting = try Setting()
        let first = try setting.pull()
        #expect(first.status == 0, "the honest first sync: \(first.stderr)")
        let before = setting.snapshot()
        // A second publication, so that objects and pointers are asked for again.
        for feed in 1...3 { try ChangedFeed(path: setting.run.data + "/feed_\(feed).sqlite").upsert([entry("hostile-\(feed)")], now: 5_000) }
        let second = try setting.run.publish.runCapturing(["--data-dir", setting.run.data, "--out", setting.run.out, "--now", "1800003600"])
        #expect(second.status == 0, "\(second.stderr)")

        let misbehaviour = try hostile.misbehaviour()
        let paths = hostile.paths
        setting.server.misbehave { paths($0) ? misbehaviour : nil }
        let asked = setting.server.requests.count
        let pulled = try setting.pull()
        let hostileRequests = setting.server.requests.dropFirst(asked).filter(paths).count
        print("hostile server: \(hostile.name): exit \(pulled.status.map(String.init) ?? "signal"), \(pulled.peakResidentBytes >> 20) MiB peak, "
            + String(format: "%.1f s", pulled.seconds) + ", \(hostileRequests) hostile request(s)")
        #expect(pulled.signal == nil, "ended by signal \(pulled.signal ?? 0)")
        #expect(pulled.status != 0 && pulled.status != nil, "a hostile answer is a failure: \(pulled.stdout)")
        #expect(pulled.stderr.contains(hostile.says), "says what went wrong (\(hostile.says)): \(pulled.stderr)")
        #expect(!pulled.stderr.contains("NSURLErrorDomain") && !pulled.stderr.contains("NSCocoaErrorDomain"), "in words: \(pulled.stderr)")
        #expect(pulled.peakResidentBytes < Self.memoryLimit, "peak RSS \(pulled.peakResidentBytes / 1_048_576) MiB")
        // `--timeout` bounds each request, however slowly its bytes come: the run takes at most
        // that per hostile request (one after the other at worst), and a few seconds more.
        #expect(pulled.seconds < Self.timeout * Double(max(1, hostileRequests)) + 5, "ended after \(pulled.seconds) s, \(hostileRequests) hostile requests")
        let after = setting.snapshot()
        let databases = before.filter { $0.key.hasSuffix(".sqlite") }
        #expect(after.filter { $0.key.hasSuffix(".sqlite") } == databases, "every database as the honest sync left it")
        #expect(after.keys.allSatisfy { !$0.contains(".tmp.") }, "no temporary left: \(after.keys.sorted())")
        let outside = FileManager.default.subpaths(atPath: setting.home) ?? []
        #expect(outside.isEmpty, "nothing written outside the folder: \(outside)")

        // The honest server back: the next run converges.
        setting.server.behave()
        let again = try setting.pull()
        #expect(again.status == 0, "\(again.stderr)")
    }
}
