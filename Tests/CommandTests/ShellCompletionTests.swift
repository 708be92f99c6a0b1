import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The completions the package installs (`contrib/completions`, which `Scripts/generate-docs
/// --check` keeps equal to what the commands generate), run in real zsh, fish and bash as a
/// person pressing Tab would (`Scripts/complete-in-shell`: zsh and fish interactive in a
/// pseudo-terminal): they load without error and offer options, feed ids from the catalog and
/// paths, under the familiar names and through `feedmill <command>`. Required on CI
/// (`FEEDMILL_REQUIRE_SHELLS=1`, or `CI`); elsewhere a shell that is not installed is skipped.
@Suite("Shell completion in zsh, fish and bash", .serialized)
struct ShellCompletionTests {
    static let shells = ["zsh", "fish", "bash"]
    static var isRequired: Bool { TestRequirement.isRequired(by: "FEEDMILL_REQUIRE_SHELLS") }

    /// What the shell offers for `line`, run in `directory` with the built commands on PATH.
    private func offered(_ shell: String, _ line: String, in directory: URL) throws -> [String] {
        let completions = ContractCheck.repository + "/contrib/completions/" + shell
        let bin = Executable.directoryWithEveryCommand
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FEEDMILL_") }
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["FEEDMILL_CONFIG"] = "none"
        let result = try runToCompletion(
            ContractCheck.repository + "/Scripts/complete-in-shell", [shell, completions, line], environment: environment, in: directory)
        #expect(result.status == 0, "\(shell) '\(line)': \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(shell) '\(line)' reported: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    private func installed(_ shell: String) -> Bool {
        ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + shell) }
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")  // zsh drives the pseudo-terminal
    }

    @Test(arguments: shells)
    func completesOptionsFeedIDsAndPaths(_ shell: String) throws {
        guard installed(shell) else {
            #expect(!Self.isRequired, "\(shell) (and zsh, which drives it) must be installed here (Scripts/setup-debian)")
            return
        }
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        try run.root.write("feeds-to-import.opml", "<opml version=\"2.0\"><body/></opml>")
        let here = run.root.url

        // Options, by the familiar name and through feedmill.
        #expect(try offered(shell, "rss-update --dr", in: here) == ["--dry-run"])
        #expect(try offered(shell, "feedmill update --dr", in: here) == ["--dry-run"])
        #expect(try offered(shell, "rss-publish --ou", in: here) == ["--out"])
        #expect(try offered(shell, "rss-pull --catalog-m", in: here) == ["--catalog-max-age"])
        let options = try offered(shell, "rss-create --", in: here)
        #expect(options.contains("--opml") && options.contains("--data-dir") && options.contains("--allow-private-networks"), "\(options)")

        // Feed ids, from the catalog the line names.
        #expect(try offered(shell, "rss-update --data-dir \(run.data) --feed ", in: here) == ["1", "2", "3"])
        #expect(try offered(shell, "feedmill update --data-dir \(run.data) --feed ", in: here) == ["1", "2", "3"])
        #expect(try offered(shell, "rss-feeds remove --data-dir \(run.data) ", in: here) == ["1", "2", "3"])
        #expect(try offered(shell, "feedmill feeds remove --data-dir \(run.data) ", in: here) == ["1", "2", "3"])

        // Paths: the feed list's files, and directories for --data-dir.
        #expect(try offered(shell, "rss-create --opml feeds-to", in: here) == ["feeds-to-import.opml"])
        #expect(try offered(shell, "feedmill create --opml feeds-to", in: here) == ["feeds-to-import.opml"])
        #expect(try offered(shell, "rss-update --data-dir da", in: here).map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } == ["data"])

        // feedmill's own first word.
        #expect(try offered(shell, "feedmill pu", in: here) == ["publish", "pull"])
    }
}
