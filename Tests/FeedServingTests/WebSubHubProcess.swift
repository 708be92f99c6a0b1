import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `Hub/websub-hub.py`: a WebSub hub that follows the W3C spec, and the publisher of the one
/// feed it is the hub of, on a port the kernel picks.
final class WebSubHubProcess {
    let process = Process()
    let port: Int

    init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Hub/websub-hub.py").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script]
        // Into a file read until the line is there (as ServeProcess reads rss-serve's).
        let log = NSTemporaryDirectory() + "websub-hub-\(UInt32.random(in: 0...UInt32.max)).out"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: log) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        var found: Int?
        var line = ""
        while found == nil, Date() < deadline, process.isRunning {
            line = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if line.hasSuffix("\n") { found = Int(line.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "listening ", with: "")) }
            if found == nil { usleep(50_000) }
        }
        guard let port = found else {
            kill(process.processIdentifier, SIGKILL)
            throw NotStarted(said: line)
        }
        self.port = port
    }

    struct NotStarted: Error { let said: String }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var topic: String { baseURL + "/feed.xml" }

    /// Every subscription request the hub saw, with what its verification came to.
    func subscriptions() throws -> [[String: Any]] {
        let answer = try curl([baseURL + "/subscriptions"])
        return (try JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [[String: Any]] ?? []
    }

    /// The verified subscription of rss-serve, once there is one (or nil after `seconds`).
    func verified(within seconds: Double) throws -> [String: Any]? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let found = try subscriptions().last(where: { $0["verified"] as? Bool == true && $0["mode"] as? String == "subscribe" }) {
                return found
            }
            usleep(100_000)
        } while Date() < deadline
        return nil
    }

    /// The feed now lists `entries`; the hub distributes it, signed, to its subscribers:
    /// the status each callback answered.
    func publish(_ entries: [String]) throws -> [Int] {
        let answer = try curl(["-X", "POST", baseURL + "/publish?entries=" + entries.joined(separator: ",")])
        let results = (try JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [[Any]] ?? []
        return results.compactMap { $0.last as? Int }
    }

    /// A port nothing listens on now, for a server whose public URL must be known before it starts.
    static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// SIGKILL: the test runner's children inherit its blocked SIGTERM, which python leaves blocked.
    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}
