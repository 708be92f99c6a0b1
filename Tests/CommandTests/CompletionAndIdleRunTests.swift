import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Shell completion (paths, feedids from the catalog) and what a run with nothing due says:
/// by hand on a terminal, a line saying so; under cron, nothing.
@Suite("Completions and a run with nothing due", .serialized)
struct CompletionAndIdleRunTests {
    // MARK: - The generated scripts

    /// Each shell's script for each command completes directories for `--data-dir` and
    /// `--out`, files for `--config`, `--opml` and rss-inspect's source, and feedids by
    /// running the command itself for `--feed` and rss-feeds' feedid arguments.
    @Test func theScriptsCompletePathsAndFeedIDs() throws {
        func script(_ command: String, _ shell: String) throws -> String {
            let result = try Executable(name: command).runCapturing(["--generate-completion-script", shell])
            #expect(result.status == 0)
            return result.stdout
        }
        for command in ["rss-create", "rss-update", "rss-publish", "rss-feeds"] {
            let prefix = "__\(command)_add_completions"
            #expect(try script(command, "bash").contains("'--data-dir')\n        \(prefix) -d\n"), "\(command) bash --data-dir")
            #expect(try script(command, "zsh").contains("(default\\: ./data; env FEEDMILL_DATA_DIR)]:dir:_files -/'"), "\(command) zsh --data-dir")
            #expect(try script(command, "fish").contains("-l 'data-dir' -d 'Directory holding all_feeds.sqlite"), "\(command) fish")
            #expect(try script(command, "fish").contains("-rfa '(__\(command)_complete_directories)'"), "\(command) fish --data-dir")
            #expect(try script(command, "bash").contains("'--config')\n        \(prefix) -o plusdirs -fX '!*.@(toml)'"), "\(command) --config")
            #expect(try script(command, "zsh").contains(":path:_files -g '\\''*.toml'\\'''"), "\(command) zsh --config")
        }
        #expect(try script("rss-publish", "bash").contains("'--out')\n        __rss-publish_add_completions -d\n"))
        #expect(try script("rss-publish", "zsh").contains(":dir:_files -/'") && script("rss-publish", "zsh").contains("'--out["))
        #expect(try script("rss-create", "bash").contains("'--opml')\n        __rss-create_add_completions -o plusdirs -fX '!*.@(opml|xml)'"))
        #expect(try script("rss-create", "zsh").contains(":path-or-url:_files -g '\\''*.opml *.xml'\\'''"))
        #expect(try script("rss-inspect", "bash").contains("case \"${positional_number}\" in\n    1)\n        __rss-inspect_add_completions -f\n"))
        #expect(try script("rss-inspect", "zsh").contains("':source:_files'"))
        #expect(try script("rss-inspect", "fish").contains("__rss-inspect_should_offer_completions_for_positional \"rss-inspect\" -eq 1' -F"))
        for command in ["rss-update", "rss-publish"] {
            #expect(try script(command, "bash").contains("'--feed')\n        __\(command)_add_completions -W \"$(__\(command)_custom_complete ---completion -- --feed "))
            #expect(try script(command, "zsh").contains("__\(command)_custom_complete ---completion -- --feed "))
            #expect(try script(command, "fish").contains("(__\(command)_custom_completion ---completion -- --feed "))
        }
        for subcommand in ["remove", "set"] {
            for shell in ["bash", "zsh", "fish"] {
                #expect(try script("rss-feeds", shell).contains("---completion \(subcommand) -- positional@0 "), "rss-feeds \(subcommand) \(shell)")
            }
        }
    }

    // MARK: - The custom completion itself

    /// What the shell gets when it runs the command for feedids: the ids of the catalog of
    /// the data directory the command line names (or the environment, or the configuration
    /// file), filtered by what is typed; nothing and exit status 0 without a catalog; and not
    /// a byte written into the data directory.
    @Test func feedIDsAreCompletedFromTheCatalogTheCommandLineNames() throws {
        let run = try BinaryRun(feeds: 3)
        #expect(try run.createAll().status == 0)
        let before = try run.listing(run.data)
        /// As the shell asks: the word at `at` (the last one unless said) is being completed,
        /// the cursor at its end.
        func complete(_ command: String, _ head: [String], _ words: [String], at: Int? = nil, environment: [String: String] = [:]) throws -> (Int32, [String]) {
            let index = at ?? words.count - 1
            let result = try Executable(name: command).runCapturing(
                ["---completion"] + head + [String(index), String(words[index].count)] + words, environment: environment)
            return (result.status, result.stdout.split(separator: "\n").map(String.init))
        }
        let started = Date()
        #expect(try complete("rss-update", ["--", "--feed"], ["rss-update", "--data-dir", run.data, "--feed", ""]) == (0, ["1", "2", "3"]))
        let elapsed = Date().timeIntervalSince(started)
        print("feedid completion from a 3-feed catalog: \(String(format: "%.3f", elapsed)) s")
        #expect(try complete("rss-update", ["--", "--feed"], ["rss-update", "--data-dir=\(run.data)", "--feed", "2"]) == (0, ["2"]))
        #expect(try complete("rss-publish", ["--", "--feed"], ["rss-publish", "--feed", ""], environment: ["FEEDMILL_DATA_DIR": run.data]) == (0, ["1", "2", "3"]))
        #expect(try complete("rss-feeds", ["remove", "--", "positional@0"], ["rss-feeds", "remove", "--data-dir", run.data, ""]) == (0, ["1", "2", "3"]))
        #expect(try complete("rss-feeds", ["set", "--", "positional@0"], ["rss-feeds", "set", "3", "--data-dir", run.data], at: 2) == (0, ["3"]))
        let config = try run.root.write("feedmill-completion.toml", "data-dir = \"\(run.data)\"\n")
        #expect(try complete("rss-feeds", ["remove", "--", "positional@0"], ["rss-feeds", "remove", "--config", config, ""]) == (0, ["1", "2", "3"]))
        // Nothing there: nothing offered, quietly.
        let nowhere = run.root.url.path + "/no-data"
        let none = try Executable(name: "rss-update").runCapturing(["---completion", "--", "--feed", "3", "0", "rss-update", "--data-dir", nowhere, "--feed", ""])
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.isEmpty, "\(none)")
        #expect(!FileManager.default.fileExists(atPath: nowhere), "completion creates no data directory")
        #expect(try run.listing(run.data) == before, "completion writes nothing into the data directory")
    }

    /// Tab runs the command over whatever lies in the data directory: a catalog that is
    /// damaged or is a FIFO (where a read-only open waits for a writer, and the shell with it)
    /// offers nothing, at once, with status 0 and nothing on stderr.
    @Test func aDamagedCatalogOrAFIFOOffersNothingAtOnce() throws {
        let run = try BinaryRun(feeds: 1)
        let data = run.root.url.path + "/odd"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let catalog = data + "/all_feeds.sqlite"
        var generator = SeededGenerator.announced()
        let damaged = Data("SQLite format 3\u{0}".utf8) + Data((0..<8_192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try damaged.write(to: URL(fileURLWithPath: catalog))
        for kind in ["damaged", "fifo"] {
            if kind == "fifo" { #expect(unlink(catalog) == 0 && mkfifo(catalog, 0o644) == 0) }
            let process = try Executable(name: "rss-update").start(
                ["---completion", "--", "--feed", "3", "0", "rss-update", "--data-dir", data, "--feed", ""], captureOutput: true)
            let output = Output(process)
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
            let answered = !process.isRunning
            // A completion still waiting is stopped, so the test fails instead of hanging.
            if !answered { process.terminate() }
            process.waitUntilExit()
            #expect(answered, "\(kind): answered at once")
            #expect(process.terminationStatus == 0 && output.stdout().isEmpty && output.stderr().isEmpty, "\(kind): \(output.stderr())")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: data) == ["all_feeds.sqlite"], "nothing written")
    }

    /// The whole way, in bash itself: the generated script's completion function, asked as
    /// the shell asks after `rss-update --data-dir DIR --feed <Tab>` and
    /// `rss-feeds remove --data-dir DIR <Tab>`, offers the catalog's feedids.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
    func bashOffersTheCatalogsFeedIDs() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        let bin = Executable.directoryWithEveryCommand
        func offered(_ command: String, _ words: [String]) throws -> [String] {
            let script = try run.root.write("\(command).bash", try Executable(name: command).runCapturing(["--generate-completion-script", "bash"]).stdout)
            let line = words.joined(separator: " ")
            let shell = """
                source '\(script)'
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                _\(command) \(command) '\(words.last ?? "")' '\(words.dropLast().last ?? "")'
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FEEDMILL_") }
            environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let result = try runToCompletion("/bin/bash", ["-c", shell], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try offered("rss-update", ["rss-update", "--data-dir", run.data, "--feed", ""]) == ["1", "2"])
        #expect(try offered("rss-feeds", ["rss-feeds", "remove", "--data-dir", run.data, ""]) == ["1", "2"])
    }

    // MARK: - Nothing due

    /// The demo's first rss-update printed nothing: by hand on a terminal a run with nothing
    /// due now says how many feeds there are and when the next is due; under cron (no
    /// terminal) or with --quiet it still prints nothing.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func aRunByHandWithNothingDueSaysSoAndCronHearsNothing() throws {
        let run = try BinaryRun(feeds: 2)
        #expect(try run.createAll().status == 0)
        let config = try run.root.write("empty.toml", "")
        let arguments = ["--data-dir", run.data, "--allow-private-networks", "--config", config]
        let byHand = try Self.onATerminal(run.update.url.path, arguments)
        #expect(byHand.status == 0)
        #expect(byHand.output.contains("rss-update: nothing due: 2 feeds; next due in "), "\(byHand.output)")
        #expect(byHand.output.contains(" UTC); --all or --feed <feedid> updates now"), "\(byHand.output)")
        let quietly = try Self.onATerminal(run.update.url.path, arguments + ["--quiet"])
        #expect(quietly.status == 0 && !quietly.output.contains("nothing due"), "\(quietly.output)")
        let scheduled = try run.update.runCapturing(arguments)
        #expect(scheduled.status == 0 && scheduled.stdout.isEmpty && scheduled.stderr.isEmpty, "\(scheduled)")
        // Something due: no such line.
        let forced = try Self.onATerminal(run.update.url.path, arguments + ["--feed", "1"])
        #expect(forced.status == 0 && !forced.output.contains("nothing due"), "\(forced.output)")
    }

    /// Runs `executable` with a pseudo-terminal as its standard input, output and error
    /// (script(1)): what a person at a terminal sees.
    static func onATerminal(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", quoted, "/dev/null"]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FEEDMILL_") && $0.key != "SOURCE_DATE_EPOCH" }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        let output = Output(process)
        process.waitUntilExit()
        return (process.terminationStatus, (output.stdout() + output.stderr()).replacingOccurrences(of: "\r\n", with: "\n"))
    }
}
