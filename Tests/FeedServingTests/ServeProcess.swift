import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `rss-serve` run as an operator runs it, on a port the kernel picks, its output in a file.
final class ServeProcess {
    let process = Process()
    let log: String
    let port: Int

    init(out: String, in scratch: String, listen: String = "127.0.0.1:0", extra: [String] = [], environment: [String: String] = [:]) throws {
        log = scratch + "/rss-serve-\(UInt32.random(in: 0...UInt32.max)).log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.executableURL = Executable(name: "rss-serve").url
        process.arguments = ["--listen", listen, "--out", out] + extra
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "serving \(out) on 127.0.0.1:") {
                found = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            if found == nil { usleep(50_000) }
        }
        guard let found else {
            process.terminate()
            throw NotStarted(log: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }
        port = found
    }

    struct NotStarted: Error { let log: String }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// What it logged so far.
    var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status and how long the stop took.
    func stop() -> (status: Int32, seconds: Double) {
        let start = Date()
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        return (process.terminationStatus, Date().timeIntervalSince(start))
    }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
}

/// `curl`, the real client: status line and headers, then the body.
func curl(_ arguments: [String]) throws -> (head: String, body: String) {
    let result = try runToCompletion("/usr/bin/curl", ["-s", "-D", "-", "--max-time", "10"] + arguments)
    let text = result.stdout
    guard let split = text.range(of: "\r\n\r\n") else { return (text, "") }
    return (String(text[..<split.lowerBound]), String(text[split.upperBound...]))
}

/// A header's value in a head `curl -D -` printed.
func header(_ name: String, in head: String) -> String? {
    head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
        .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
}

/// `curl -N` reading an event stream into a file until stopped.
final class EventReader {
    let process = Process()
    let file: String

    init(_ url: String, in scratch: String, headers: [String] = []) throws {
        file = scratch + "/events-\(UInt32.random(in: 0...UInt32.max)).txt"
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-sN", url] + headers.flatMap { ["-H", $0] }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var text: String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }

    /// The events read so far: type, id and data (parsed JSON).
    var events: [(kind: String, id: Int, data: [String: Any])] {
        text.components(separatedBy: "\n\n").compactMap { block in
            var kind = "message", id = -1
            var data: [String: Any]?
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { kind = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) ?? -1 }
                if line.hasPrefix("data: ") {
                    data = (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8))) as? [String: Any]
                }
            }
            return data.map { (kind, id, $0) }
        }
    }

    /// Waits until `predicate` holds of the events (or `seconds` pass); whether it did.
    func wait(seconds: Double = 10, until predicate: ([(kind: String, id: Int, data: [String: Any])]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if predicate(events) { return true }
            usleep(50_000)
        }
        return predicate(events)
    }

    var isRunning: Bool { process.isRunning }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
}
