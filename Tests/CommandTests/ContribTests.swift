import FeedBasics
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
        arguments: ["feedmill-update.service", "feedmill-create.service", "feedmill-update@.service", "feedmill-create@.service", "feedmill-serve.service"])
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

    @Test("75 (busy) and 143 (SIGTERM) are not failed units", arguments: ["feedmill-update.service", "feedmill-create.service", "feedmill-update@.service", "feedmill-create@.service"])
    func exitStatuses(unit: String) throws {
        let line = try Self.text("contrib/systemd/" + unit).split(separator: "\n").first { $0.hasPrefix("SuccessExitStatus=") }
        let codes = Set((line ?? "").dropFirst("SuccessExitStatus=".count).split(separator: " ").map(String.init))
        #expect(codes.isSuperset(of: ["1", "75", "143"]))
        #expect(try Self.text("contrib/systemd/" + unit).contains("StateDirectory=feedmill"))
    }

    /// Enabling a timer-driven or by-hand service would also start it at every boot: only the
    /// timers are enabled, and they start the services; rss-serve, long-running, is the one
    /// service enabled itself.
    @Test func onlyTheTimersHaveAnInstallSection() throws {
        let units = try FileManager.default.contentsOfDirectory(atPath: Self.root.path + "/contrib/systemd").sorted()
        #expect(units.filter { $0.hasSuffix(".service") }.count == 5 && units.filter { $0.hasSuffix(".timer") }.count == 2, "\(units)")
        for unit in units {
            let lines = try Self.text("contrib/systemd/" + unit).split(separator: "\n")
            if unit.hasSuffix(".timer") {
                #expect(lines.contains("[Install]") && lines.contains("WantedBy=timers.target"), "\(unit)")
            } else if unit == "feedmill-serve.service" {
                #expect(lines.contains("[Install]") && lines.contains("WantedBy=multi-user.target"), "\(unit)")
            } else {
                #expect(!lines.contains("[Install]") && !lines.contains { $0.hasPrefix("WantedBy=") }, "\(unit)")
            }
        }
    }

    /// The package's user and directories: what the units (User=feedmill, StateDirectory=)
    /// and /etc/feedmill/feedmill.toml (data-dir, out) expect, as SPEC-42 names them.
    @Test func sysusersAndTmpfilesMakeWhatTheUnitsUse() throws {
        let sysusers = try Self.text("contrib/sysusers.d/feedmill.conf").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(sysusers.count == 1 && sysusers[0].hasPrefix("u     feedmill -") && sysusers[0].contains(" /var/lib/feedmill "), "\(sysusers)")
        let tmpfiles = try Self.text("contrib/tmpfiles.d/feedmill.conf").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: " ").map(String.init) }
        #expect(tmpfiles.map { Array($0.prefix(5)) } == [
            ["d", "/var/lib/feedmill", "0750", "feedmill", "feedmill"],
            ["d", "/var/lib/feedmill/data", "0750", "feedmill", "feedmill"],
            ["d", "/var/www/feedmill", "0755", "feedmill", "feedmill"],
        ])
        let config = try Self.text("contrib/feedmill.toml").split(separator: "\n")
        #expect(config.contains(#"data-dir = "/var/lib/feedmill/data""#) && config.contains(#"out = "/var/www/feedmill""#))
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

    /// One instance per shard: the instance is the shard as systemd-escape writes it (2/4 ->
    /// 2-4), `%I` gives the K/N back to `--shard`, `%i` names the shard's own data directory
    /// and metrics files; the timer starts it, so the service has no [Install] section.
    @Test func theShardTemplateRunsEachShardWithItsOwnDataDirectory() throws {
        let service = try Self.text("contrib/systemd/feedmill-update@.service")
        let timer = try Self.text("contrib/systemd/feedmill-update@.timer")
        let create = try Self.text("contrib/systemd/feedmill-create@.service")
        let lines = service.split(separator: "\n").map(String.init)
        let starts = (lines + create.split(separator: "\n").map(String.init)).filter { $0.hasPrefix("ExecStart=") }
        #expect(starts.count == 3)
        for start in starts {
            #expect(start.contains(" --shard %I "), "\(start)")
            #expect(start.contains(" --data-dir /var/lib/feedmill/shard-%i/data "), "\(start)")
            #expect(start.contains("-%i.prom"), "one metrics file per shard: \(start)")
        }
        #expect(lines.contains("StateDirectory=feedmill/shard-%i") && create.contains("\nStateDirectory=feedmill/shard-%i\n"))
        #expect(!lines.contains("[Install]") && !lines.contains { $0.hasPrefix("WantedBy=") }, "started by its timer only")
        #expect(!create.split(separator: "\n").contains("[Install]"), "started by hand after the feed list changes")
        #expect(timer.contains("\n[Install]\nWantedBy=timers.target"))
        #expect(timer.contains("\nPersistent=true\n") && timer.contains("\nRandomizedDelaySec="))
        let sharding = try Self.text("docs/sharding.md")
        for unit in ["feedmill-update@.service", "feedmill-update@.timer", "feedmill-create@.service"] {
            #expect(sharding.contains("contrib/systemd/" + unit), "docs/sharding.md: \(unit)")
        }
    }

    @Test(
        "systemd-escape names each shard's instance, and gives its K/N back",
        .enabled(if: InstalledTool.exists("/usr/bin/systemd-escape"), "systemd-escape is not installed (Debian package systemd)"),
        arguments: ["1/1", "2/4", "12/16", "1024/1024"])
    func instanceNames(shard: String) throws {
        func escape(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-escape")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let unit = try escape(["--template=feedmill-update@.service", shard])
        #expect(unit == "feedmill-update@" + shard.replacingOccurrences(of: "/", with: "-") + ".service")
        #expect(try escape(["--unescape", "--instance", unit]) == shard, "%I is the shard as --shard takes it")
        #expect(try Shard(parsing: shard).label == shard)
    }

    /// `systemd-analyze verify` of one instance and its timer, with the built executables in
    /// place of /usr/local/bin (verify checks that they exist): nothing to say.
    @Test(
        .enabled(if: InstalledTool.exists("/usr/bin/systemd-analyze"), "systemd-analyze is not installed (Debian package systemd)"))
    func theShardTemplateVerifies() throws {
        let directory = try TemporaryDirectory()
        // Every command the units name must be there, whatever order the tests ran in (a
        // clean clone's CI found the one that depended on it).
        let built = Executable.directoryWithEveryCommand + "/"
        var paths: [String] = []
        for unit in ["feedmill-update@.service", "feedmill-update@.timer", "feedmill-create@.service"] {
            let text = try Self.text("contrib/systemd/" + unit).replacingOccurrences(of: "/usr/local/bin/", with: built)
            paths.append(try directory.write(unit.replacingOccurrences(of: "@.", with: "@2-4."), text))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        process.arguments = ["verify", "--man=no"] + paths
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && text.isEmpty, "\(text)")
    }
}
