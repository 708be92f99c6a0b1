import FeedBasics
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The command surface a person meets first, through the built binaries: what a mistake is
/// told (the words and the exit status), the usage lines, one default per option, each
/// command's own exit-status text, and `--version`.
@Suite("Command surface: messages, usage, defaults, version", .serialized)
struct CommandSurfaceTests {
    static let commands = ["rss-create", "rss-update", "rss-publish", "rss-inspect", "rss-feeds", "rss-pull"]

    /// The words that must follow a command for its options to be parsed at all (its
    /// positional arguments), so that a test reaches the option under test.
    static func positionals(_ path: [String], option: String, scratch: String) -> [String] {
        switch path.joined(separator: " ") {
        // `set` refuses to run with nothing to set, before the option under test is read.
        case "rss-feeds set" where !["keep-items", "keep-days"].contains(option): return ["1", "--run-defaults"]
        case "rss-inspect": return ["feed.xml"]
        case "rss-pull": return ["http://127.0.0.1:9/", scratch + "/client"]
        case "rss-feeds add": return ["http://example.org/feed.xml"]
        case "rss-feeds remove", "rss-feeds set": return ["1"]
        default: return []
        }
    }

    // MARK: - `--limit -3` and every other number

    @Test func aNegativeLimitIsRefusedForWhatItIsWithTheValueAttachedOrApart() throws {
        let update = Executable(name: "rss-update")
        for (arguments, given) in [(["--limit", "-3"], "-3"), (["--limit=-3"], "-3"), (["--limit", "0"], "0")] {
            let result = try update.runCapturing(arguments + ["--data-dir", "/nonexistent/feedmill-data"])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Error: --limit must be a whole number of 1 or more; got \(given)\n"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
        }
    }

    /// Every option that takes a number, in every command and subcommand (found through
    /// ArgumentParser's own description of the commands, so an option added later is
    /// covered): `--option -3` is refused with exit status 64 by a message that names the
    /// value, never as "Missing value".
    @Test func everyNumericOptionRefusesANegativeNumberByNamingIt() throws {
        let scratch = try TemporaryDirectory()
        let numeric: Set<String> = ["n", "mib", "days", "seconds", "feedid", "unix-time", "duration"]
        var checked: [String] = []
        for command in Self.commands {
            for (path, arguments) in try HelpDump.commands(of: command) {
                for argument in arguments where argument.kind == "option" && numeric.contains(argument.valueName ?? "") {
                    guard let name = argument.longName else { continue }
                    let executable = Executable(name: command)
                    let words = Array(path.dropFirst()) + Self.positionals(path, option: name, scratch: scratch.url.path) + ["--" + name, "-3"]
                    let result = try executable.runCapturing(words)
                    let shown = "\(path.joined(separator: " ")) --\(name) -3"
                    #expect(result.status == 64, "\(shown): \(result.status) \(result.stderr)")
                    #expect(!result.stderr.contains("Missing value"), "\(shown): \(result.stderr)")
                    #expect(result.stderr.contains("-3"), "\(shown) names the value: \(result.stderr)")
                    #expect(argument.parsingStrategy == "unconditional", "\(shown) reads the next word as its value")
                    checked.append(shown)
                }
            }
        }
        // The options of today, at least: the test cannot pass by finding none.
        for expected in [
            "rss-update --limit -3", "rss-update --feed -3", "rss-update --concurrency -3", "rss-update --deadline -3",
            "rss-update --keep-items -3", "rss-update --timeout -3", "rss-update --now -3", "rss-publish --deltas -3",
            "rss-publish --feed -3", "rss-publish --retire-after -3", "rss-feeds set --keep-days -3", "rss-pull --timeout -3",
            "rss-pull --feed -3", "rss-create --max-size -3", "rss-inspect --timeout -3",
        ] {
            #expect(checked.contains(expected), "\(expected) was not found among \(checked)")
        }
    }

    /// `rss-feeds remove -3` was "Missing expected argument '<feedid>'".
    @Test func aNegativeFeedIDArgumentIsRefusedForWhatItIs() throws {
        let feeds = Executable(name: "rss-feeds")
        for arguments in [["remove", "-3"], ["remove", "2", "-3", "--data-dir", "/nonexistent/feedmill-data"], ["set", "-3", "--keep-items", "4"], ["remove", "--", "-3"]] {
            let result = try feeds.runCapturing(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: a feedid is a whole number of 1 or more; got -3\n"), "\(arguments): \(result.stderr)")
        }
        // A negative number that is an option's value is still that option's.
        let value = try feeds.runCapturing(["set", "1", "--keep-days", "-3"])
        #expect(value.status == 64 && value.stderr.contains("--keep-days must be a whole number from 1 to 36500; got -3"), "\(value.stderr)")
    }

    // MARK: - `rss-feeds lst`

    @Test func aMistypedSubcommandIsRefusedNamingTheNearestOne() throws {
        let feeds = Executable(name: "rss-feeds")
        for (typed, meant) in [("lst", "list"), ("exprot", "export"), ("remvoe", "remove"), ("ad", "add")] {
            let result = try feeds.runCapturing([typed, "--data-dir", "/nonexistent/feedmill-data"])
            #expect(result.status == 64, "\(typed): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: unknown subcommand \"\(typed)\": did you mean \"\(meant)\"?\n"), "\(result.stderr)")
        }
        let unlike = try feeds.runCapturing(["xyzzy"])
        #expect(unlike.status == 64)
        #expect(unlike.stderr.hasPrefix("Error: unknown subcommand \"xyzzy\"; the subcommands are list, add, remove, set, export\n"), "\(unlike.stderr)")
        // The default subcommand still runs without one, and options still go to it.
        let listed = try feeds.runCapturing(["--data-dir", "/nonexistent/feedmill-data"])
        #expect(!listed.stderr.contains("unknown subcommand"), "\(listed.stderr)")
    }

    // MARK: - `rss-publish --out ro/pub`

    /// `--out` names the output directory; a failure to create it says "output directory",
    /// with the reason, never "data directory".
    @Test(.enabled(if: SmallFileSystem.available, "mounting a tmpfs needs root"))
    func anOutputDirectoryOnAReadOnlyFileSystemIsCalledTheOutputDirectory() throws {
        let run = try BinaryRun(feeds: 1)
        #expect(try run.createAll().status == 0)
        let readOnly = try #require(SmallFileSystem(options: "size=1m"))
        #expect(readOnly.remount("ro"))
        let out = readOnly.path + "/pub"
        let result = try run.publishAll(into: out)
        #expect(result.status == 73, "EX_CANTCREAT: \(result.stderr)")
        #expect(result.stderr.contains("cannot create output directory \(out): the file system holding \(readOnly.path) is mounted read-only"), "\(result.stderr)")
        #expect(result.stderr.contains("(EROFS)"), "\(result.stderr)")
        #expect(!result.stderr.contains("data directory"), "\(result.stderr)")
    }

    // MARK: - Usage lines

    @Test func usageLinesNameTheOptionsThatMatter() throws {
        let expected: [String: [String]] = [
            "rss-create": ["rss-create [--opml <path-or-url>]", "--rebuild-catalog"],
            "rss-update": ["rss-update [--data-dir <dir>] [--limit <n>]", "(--feed <feedid> ... | --all)"],
            "rss-publish": ["rss-publish [--data-dir <dir>] [--out <dir>|s3://<bucket>/<prefix>]", "rss-publish --recover"],
            "rss-inspect": ["rss-inspect [--details | --summary]", "<source>"],
            "rss-feeds": ["rss-feeds [list] [--format <table|json>]", "rss-feeds remove <feedid> ...", "rss-feeds set <feedid>"],
            "rss-pull": ["rss-pull <base-url> <folder>", "rss-pull <base-url> --search <text>"],
        ]
        for command in Self.commands {
            let help = try Executable(name: command).runCapturing(["--help"]).stdout
            let usage = help.components(separatedBy: "USAGE: ").last?.components(separatedBy: "\n\n").first ?? ""
            #expect(!usage.contains("<options>"), "\(command): \(usage)")
            for part in expected[command] ?? [] { #expect(usage.contains(part), "\(command): \(usage)") }
        }
        // A usage error shows the same lines.
        let refused = try Executable(name: "rss-update").runCapturing(["--no-such-option"])
        #expect(refused.status == 64 && refused.stderr.contains("Usage: rss-update [--data-dir <dir>] [--limit <n>]"), "\(refused.stderr)")
    }

    // MARK: - One default per option

    /// No option's help states its default twice: the text and ArgumentParser's
    /// "(default: …)" do not both say it, and a setting's is said once, from the registry.
    @Test func everyOptionStatesItsDefaultOnce() throws {
        var options = 0
        for command in Self.commands {
            for (path, arguments) in try HelpDump.commands(of: command) {
                for argument in arguments {
                    let said = argument.abstract.lowercased().components(separatedBy: "default").count - 1
                    let shownByParser = argument.defaultValue.map { $0.isEmpty ? 0 : 1 } ?? 0
                    #expect(said + shownByParser <= 1, "\(path.joined(separator: " ")) --\(argument.longName ?? "?"): \(argument.abstract) [\(argument.defaultValue ?? "")]")
                    options += 1
                }
            }
        }
        #expect(options > 60)
        let help = try Executable(name: "rss-update").runCapturing(["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "  +", with: " ", options: .regularExpression)
        #expect(help.contains("(default: http_proxy, https_proxy, all_proxy and no_proxy from the environment; env FEEDMILL_PROXY)"), "\(help)")
        #expect(help.contains("(default: all; env FEEDMILL_KEEP_ITEMS)"), "\(help)")
        #expect(help.contains("(default: the system clock; env SOURCE_DATE_EPOCH)"), "\(help)")
    }

    // MARK: - rss-feeds' exit status text

    @Test func rssFeedsAndEachSubcommandSayTheirOwnExitStatus() throws {
        let feeds = Executable(name: "rss-feeds")
        func exitText(_ arguments: [String]) throws -> String {
            let help = try feeds.runCapturing(arguments + ["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "  +", with: " ", options: .regularExpression)
            return help.components(separatedBy: "Exit status: ").dropFirst().first?.components(separatedBy: ". ").first ?? ""
        }
        let rssUpdate = try Executable(name: "rss-update").runCapturing(["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        #expect(rssUpdate.contains("1 some feeds failed (recorded, retried later with backoff)"))
        let top = try exitText([])
        #expect(top.hasPrefix("0 done; 1 remove: a feed left the catalog but its database could not be removed; 64 usage error"), "\(top)")
        #expect(!top.contains("backoff") && !top.contains("SIGTERM"), "\(top)")
        let list = try exitText(["list"])
        #expect(list.hasPrefix("0 listed; 64 usage error"), "\(list)")
        #expect(!list.contains("1 ") && !list.contains("75"), "list neither fails a feed nor waits for a lock: \(list)")
        let remove = try exitText(["remove"])
        #expect(remove.contains("1 a feed was removed from the catalog but its database was not (said on standard error)"), "\(remove)")
        #expect(remove.contains("75 another run holds the data directory"), "\(remove)")
        #expect(try exitText(["export"]).hasPrefix("0 printed;"))
        #expect(try exitText(["add"]).hasPrefix("0 added, or already listed;"))
        #expect(try exitText(["set"]).contains("64 usage error, or a feedid not in the catalog"))
    }

    // MARK: - --version

    /// `rss-update --version` names the commit the binary was built from and that commit's
    /// date: `git rev-parse --short HEAD` of this tree, or `unknown` outside a checkout.
    @Test func versionNamesTheCommitAndItsDate() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let commit = Self.git(["-C", root, "rev-parse", "--short", "HEAD"]) ?? "unknown"
        let date = Self.git(["-C", root, "log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%d"], environment: ["TZ": "UTC"]) ?? "unknown"
        if commit != "unknown" { #expect(commit.count >= 7 && commit.allSatisfy(\.isHexDigit)) }
        for command in Self.commands {
            let result = try Executable(name: command).runCapturing(["--version"])
            #expect(result.status == 0)
            #expect(result.stdout == "\(command) \(FeedmillVersion.current) (commit \(commit), built \(date))\n", "\(result.stdout)")
        }
    }

    /// The stamp: the commit's date, not the build's, `unknown` outside a git checkout, and the
    /// file rewritten only when it changes (so an unchanged tree rebuilds nothing).
    @Test func theBuildStampIsUnknownOutsideACheckoutAndWrittenOnlyWhenItChanges() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let scratch = try TemporaryDirectory()
        let tarball = scratch.url.path + "/unpacked"
        try FileManager.default.createDirectory(atPath: tarball, withIntermediateDirectories: true)
        let out = scratch.url.path + "/stamp"
        #expect(Self.run("/bin/sh", [root + "/Scripts/build-stamp", tarball, out]) != nil)
        let stamp = try String(contentsOfFile: out + "/BuildStamp.swift", encoding: .utf8)
        #expect(stamp.contains("static let commit = \"unknown\"") && stamp.contains("static let date = \"unknown\""), "\(stamp)")
        let written = try FileManager.default.attributesOfItem(atPath: out + "/BuildStamp.swift")[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 1.1)
        #expect(Self.run("/bin/sh", [root + "/Scripts/build-stamp", tarball, out]) != nil)
        let again = try FileManager.default.attributesOfItem(atPath: out + "/BuildStamp.swift")[.modificationDate] as? Date
        #expect(written == again, "an unchanged stamp is not rewritten")
        if let commit = Self.git(["-C", root, "rev-parse", "--short", "HEAD"]) {
            #expect(Self.run("/bin/sh", [root + "/Scripts/build-stamp", root, out]) != nil)
            #expect(try String(contentsOfFile: out + "/BuildStamp.swift", encoding: .utf8).contains("static let commit = \"\(commit)\""))
        }
    }

    static func git(_ arguments: [String], environment: [String: String] = [:]) -> String? {
        run("/usr/bin/env", ["git"] + arguments, environment: environment).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Standard output of a tool that exited 0, else nil.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: output, as: UTF8.self) : nil
    }
}

/// A command's options as swift-argument-parser describes them (`--experimental-dump-help`):
/// every option of every subcommand, with no list kept by hand.
enum HelpDump {
    struct Argument: Decodable {
        struct Name: Decodable {
            let kind: String
            let name: String
        }
        let kind: String
        let names: [Name]?
        let valueName: String?
        let parsingStrategy: String?
        let defaultValue: String?
        let abstract: String
        let shouldDisplay: Bool?

        enum CodingKeys: String, CodingKey { case kind, names, valueName, parsingStrategy, defaultValue, abstract, shouldDisplay }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(String.self, forKey: .kind)
            names = try container.decodeIfPresent([Name].self, forKey: .names)
            valueName = try container.decodeIfPresent(String.self, forKey: .valueName)
            parsingStrategy = try container.decodeIfPresent(String.self, forKey: .parsingStrategy)
            defaultValue = try container.decodeIfPresent(String.self, forKey: .defaultValue)
            abstract = try container.decodeIfPresent(String.self, forKey: .abstract) ?? ""
            shouldDisplay = try container.decodeIfPresent(Bool.self, forKey: .shouldDisplay)
        }

        var longName: String? { names?.first { $0.kind == "long" }?.name }
    }

    final class Command: Decodable {
        let commandName: String
        let arguments: [Argument]?
        let subcommands: [Command]?
    }

    struct Dump: Decodable { let command: Command }

    /// `[command, subcommand…]` and the displayed arguments of each, the command first.
    static func commands(of executable: String) throws -> [([String], [Argument])] {
        let output = try Executable(name: executable).runCapturing(["--experimental-dump-help"]).stdout
        let dump = try JSONDecoder().decode(Dump.self, from: Data(output.utf8))
        var found: [([String], [Argument])] = []
        func walk(_ command: Command, _ path: [String]) {
            let here = path + [command.commandName]
            found.append((here, (command.arguments ?? []).filter { $0.shouldDisplay ?? true }))
            for sub in command.subcommands ?? [] where sub.commandName != "help" { walk(sub, here) }
        }
        walk(dump.command, [])
        return found
    }
}
