import Foundation
import TestSupport
import Testing

/// Runs the built rss-create / rss-update executables (beside the test bundle) as processes.
struct Executable {
    let name: String

    var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    func start(_ arguments: [String], environment: [String: String] = [:], captureOutput: Bool = false) throws -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        // Only what the test sets: a FEEDMILL_* variable, a proxy or a certificate bundle in
        // the caller's shell must not leak in.
        let fetching: Set<String> = [
            "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
            "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR",
        ]
        var inherited = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("FEEDMILL_") && $0.key != "SOURCE_DATE_EPOCH" && !fetching.contains($0.key)
        }
        inherited.merge(environment) { $1 }
        process.environment = inherited
        process.standardOutput = captureOutput ? Pipe() : FileHandle.nullDevice
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Runs to completion: exit status, stdout and stderr.
    func runCapturing(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try start(arguments, environment: environment, captureOutput: true)
        let output = Output(process)
        process.waitUntilExit()
        return (process.terminationStatus, output.stdout(), output.stderr())
    }

    /// Runs to completion: exit status and stderr.
    func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = try start(arguments)
        let stderr = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }
}

/// Drains a process's pipes on background threads, so a chatty process never blocks on a full pipe.
///
/// `@unchecked Sendable`: each of `out` and `err` is written by one reader thread only, and
/// read only after `group.wait()`, which orders the write before the read.
final class Output: @unchecked Sendable {
    private var out = Data(), err = Data()
    private let group = DispatchGroup()

    init(_ process: Process) {
        for (pipe, isError) in [(process.standardOutput as? Pipe, false), (process.standardError as? Pipe, true)] {
            guard let pipe else { continue }
            group.enter()
            DispatchQueue.global().async { [self] in
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                if isError { err = data } else { out = data }
                group.leave()
            }
        }
    }

    func stdout() -> String { group.wait(); return String(decoding: out, as: UTF8.self) }
    func stderr() -> String { group.wait(); return String(decoding: err, as: UTF8.self) }
}

/// A server with `count` feeds of `items` entries each and an OPML listing them.
func feedFarm(count: Int, items: Int, delay: Double) throws -> TestHTTPServer {
    try TestHTTPServer { request in
        if request.path == "/list.opml" {
            let outlines = (0..<count).map { "<outline text=\"Feed \($0)\" xmlUrl=\"/feed/\($0).xml\"/>" }.joined()
            return .init(contentType: "text/x-opml", body: "<opml version=\"2.0\"><body>\(outlines)</body></opml>")
        }
        guard let number = Int(request.path.dropFirst("/feed/".count).dropLast(".xml".count)) else { return .init(status: 404) }
        let entries = (0..<items).map { ("f\(number)-\($0)", "Feed \(number) entry \($0)", "https://site.example/\(number)/\($0)", "Tue, 21 Apr 2009 23:32:00 +0000") }
        return .init(headers: [("Content-Type", "application/rss+xml")], body: Array(rss("Feed \(number)", items: entries).utf8), delay: delay)
    }
}

@Suite("Whole runs as processes", .serialized)
struct ProcessTests {
    let create = Executable(name: "rss-create")
    let update = Executable(name: "rss-update")

    @Test func aSecondRunExitsAtOnceAndNothingIsCorrupted() throws {
        let server = try feedFarm(count: 4, items: 3, delay: 0.5)
        let directory = try TemporaryDirectory()
        let data = ["--data-dir", directory.url.path, "--allow-private-networks", "--concurrency", "1"]
        #expect(try create.run(["--opml", server.baseURL + "/list.opml"] + data).status == 0)
        let first = try update.start(["--all"] + data)
        Thread.sleep(forTimeInterval: 0.5)
        let started = ContinuousClock.now
        let second = try update.run(["--all"] + data)
        #expect(second.status == 75)
        #expect(second.stderr.contains("another Feedmill run (pid \(first.processIdentifier))"))
        #expect(ContinuousClock.now - started < .seconds(1), "it does not wait")
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) where file.hasSuffix(".sqlite") {
            #expect(try sqlite(directory.url.path + "/" + file, "PRAGMA integrity_check") == [["ok"]])
        }
    }

    @Test func runsKilledAtRandomPointsThenCompletedEndLikeAnUninterruptedRun() throws {
        let server = try feedFarm(count: 24, items: 15, delay: 0.03)
        let list = ["--opml", server.baseURL + "/list.opml"]
        let reference = try TemporaryDirectory()
        let referenceOptions = ["--data-dir", reference.url.path, "--allow-private-networks", "--concurrency", "4"]
        #expect(try create.run(list + referenceOptions).status == 0)

        let interrupted = try TemporaryDirectory()
        let options = ["--data-dir", interrupted.url.path, "--allow-private-networks", "--concurrency", "4"]
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for round in 0..<8 {
            // Alternate the create step and forced updates, each killed somewhere in the middle.
            let process = try round % 2 == 0 ? create.start(list + options) : update.start(["--all"] + options)
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.4, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killed += 1 }
        }
        #expect(killed >= 4, "most rounds were really interrupted (\(killed) of 8)")
        #expect(try create.run(list + options).status == 0)
        #expect(try update.run(["--all"] + options).status == 0)

        let query = "SELECT id, title, summary, permalink, pubdate_unix_time FROM items ORDER BY id"
        let catalogQuery = "SELECT feedid, url, title FROM feeds JOIN about USING (feedid) ORDER BY feedid"
        #expect(try sqlite(interrupted.url.path + "/all_feeds.sqlite", catalogQuery) == sqlite(reference.url.path + "/all_feeds.sqlite", catalogQuery))
        for feed in 1...24 {
            let name = "/feed_\(feed).sqlite"
            let got = try sqlite(interrupted.url.path + name, query)
            #expect(got.count == 15)
            #expect(got == (try sqlite(reference.url.path + name, query)), "feed \(feed)")
            #expect(try sqlite(interrupted.url.path + name, "PRAGMA integrity_check") == [["ok"]])
        }
        #expect(try sqlite(interrupted.url.path + "/all_feeds.sqlite", "PRAGMA integrity_check") == [["ok"]])
    }
}
