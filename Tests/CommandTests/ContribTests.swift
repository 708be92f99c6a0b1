import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The examples in `contrib/` are what the README and docs/operating.md say, and safe to install as they are.
@Suite("contrib/: service units, cron file")
struct ContribTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(
        "systemd-analyze rates each service 2.0 or lower",
        .enabled(if: InstalledTool.exists("/usr/bin/systemd-analyze"), "systemd-analyze is not installed (Debian package systemd)"),
        arguments: ["feedmill-update.service", "feedmill-create.service"])
    func hardened(unit: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        process.arguments = ["security", "--offline=true", "--threshold=20", Self.root.path + "/contrib/systemd/" + unit]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let overall = text.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? "no rating"
        #expect(process.terminationStatus == 0, "\(overall)")
    }

    @Test("75 (busy) and 143 (SIGTERM) are not failed units", arguments: ["feedmill-update.service", "feedmill-create.service"])
    func exitStatuses(unit: String) throws {
        let line = try Self.text("contrib/systemd/" + unit).split(separator: "\n").first { $0.hasPrefix("SuccessExitStatus=") }
        let codes = Set((line ?? "").dropFirst("SuccessExitStatus=".count).split(separator: " ").map(String.init))
        #expect(codes.isSuperset(of: ["1", "75", "143"]))
        #expect(try Self.text("contrib/systemd/" + unit).contains("StateDirectory=feedmill"))
    }

    /// The README shows the short version and docs/operating.md the full one: both must be the shipped files.
    @Test(arguments: ["README.md", "docs/operating.md"])
    func theREADMEsCronAndSystemdExamplesAreTheShippedFiles(page: String) throws {
        let readme = try Self.text(page)
        let cron = try Self.text("contrib/cron/feedmill")
        let block = try #require(readme.components(separatedBy: "# /etc/cron.d/feedmill\n").dropFirst().first?.components(separatedBy: "```").first)
        for line in block.split(separator: "\n") {
            #expect(cron.split(separator: "\n").contains(line), "\(page)'s cron line is not in contrib/cron/feedmill: \(line)")
        }
        for unit in ["feedmill-update.service", "feedmill-update.timer", "feedmill-create.service"] {
            #expect(readme.contains("contrib/systemd/" + unit) || readme.contains("contrib/systemd/feedmill-update.*"), "\(page): \(unit)")
        }
    }
}
