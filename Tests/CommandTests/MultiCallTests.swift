import FeedBasics
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The commands are one executable, `feedmill`, and `rss-update` is a link to it: called by
/// either name, with the same arguments, a command prints the same bytes and exits with the
/// same status (issue 50).
@Suite("One executable, called by every name")
struct MultiCallTests {
    let feedmill = Executable(name: "feedmill")

    /// Arguments every command takes, and mistakes each refuses.
    static let cases: [(name: String, arguments: [String])] = MultiCall.commands.flatMap { command in
        [["--help"], ["--version"], ["--no-such-option"], ["--generate-completion-script", "zsh"], ["--generate-completion-script", "fish"]]
            .map { (command.name, $0) }
    } + [
        ("rss-update", ["--limit", "-3"]), ("rss-update", ["--all", "--feed", "2"]), ("rss-feeds", ["lst"]),
        ("rss-feeds", ["remove", "-3"]), ("rss-publish", ["--out"]), ("rss-pull", ["ftp://example.org/", "folder"]),
        ("rss-inspect", ["/no/such/feed.xml"]),
    ]

    @Test(arguments: cases.indices)
    func theFamiliarNameAndFeedmillWithTheWordBehaveTheSame(_ index: Int) throws {
        let (name, arguments) = Self.cases[index]
        let word = try #require(MultiCall.commands.first { $0.name == name }?.word)
        let linked = try Executable(name: name).runCapturing(arguments)
        let multi = try feedmill.runCapturing([word] + arguments)
        #expect(multi.status == linked.status, "\(name) \(arguments)")
        #expect(multi.stdout == linked.stdout, "\(name) \(arguments)")
        #expect(multi.stderr == linked.stderr, "\(name) \(arguments)")
        #expect(!(linked.stdout + linked.stderr).isEmpty, "\(name) \(arguments) said nothing")
    }

    @Test func theFamiliarNamesAreLinksToOneExecutable() throws {
        let directory = feedmill.url.deletingLastPathComponent().path
        for command in MultiCall.commands {
            let path = Executable(name: command.name).url.path
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == "feedmill")
            #expect(URL(fileURLWithPath: path).resolvingSymlinksInPath().path == URL(fileURLWithPath: directory + "/feedmill").resolvingSymlinksInPath().path)
        }
    }

    /// Scripts/command-links makes the names beside a build; outside a build directory it
    /// never replaces a file of one of those names that is someone else's.
    @Test func theLinksScriptLeavesAFileItDidNotMake() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: feedmill.url.path, toPath: directory.url.path + "/feedmill")
        let theirs = try directory.write("rss-update", "#!/bin/sh\necho theirs\n")
        let result = try runToCompletion(ContractCheck.repository + "/Scripts/command-links", [directory.url.path])
        #expect(result.status == 73 && result.stderr.contains("rss-update is not a link to feedmill"), "\(result.stderr)")
        #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "#!/bin/sh\necho theirs\n")
        try FileManager.default.removeItem(atPath: theirs)
        #expect(try runToCompletion(ContractCheck.repository + "/Scripts/command-links", [directory.url.path]).status == 0)
        for command in MultiCall.commands {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.url.path + "/" + command.name) == "feedmill")
        }
        let version = try runToCompletion(directory.url.path + "/rss-pull", ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("rss-pull "))
    }

    @Test func aRealRunGivesTheSameOutputByEitherName() throws {
        let feed = try feedShapesFixtures().appendingPathComponent("rss20-categories-wrapper.xml").path
        let linked = try Executable(name: "rss-inspect").runCapturing(["--details", feed])
        let multi = try feedmill.runCapturing(["inspect", "--details", feed])
        #expect(linked.status == 0 && multi.status == 0)
        #expect(multi.stdout == linked.stdout)
        #expect(linked.stdout.contains("wrapped-1"))
    }

    /// A refusal that suggests a command line repeats the command's own arguments, not
    /// `feedmill`'s word: the same line by either name.
    @Test func aSuggestedCommandLineIsTheSameByEitherName() throws {
        guard geteuid() == 0 else { return }
        let root = try TemporaryDirectory()
        let data = root.url.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        #expect(chown(data, 4242, 4242) == 0)
        let list = try root.write("list.opml", "<opml version=\"2.0\"><body/></opml>")
        let arguments = ["--opml", list, "--data-dir", data]
        let linked = try Executable(name: "rss-create").runCapturing(arguments)
        let multi = try feedmill.runCapturing(["create"] + arguments)
        #expect(linked.status == 77)
        #expect(multi.status == linked.status)
        #expect(multi.stderr == linked.stderr)
        #expect(linked.stderr.contains("rss-create --opml \(list) --data-dir \(data)"), "\(linked.stderr)")
        #expect(!linked.stderr.contains("create create"))
    }

    @Test func feedmillAloneListsTheCommandsAndIsAUsageError() throws {
        let alone = try feedmill.runCapturing([])
        #expect(alone.status == 64)
        for command in MultiCall.commands { #expect(alone.stderr.contains("\(command.word)   same as \(command.name)") || alone.stderr.contains(command.name)) }
        let help = try feedmill.runCapturing(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout == alone.stderr)
        #expect(try feedmill.runCapturing(["help"]).stdout == help.stdout)
    }

    @Test func aMistypedCommandNamesTheNearest() throws {
        let result = try feedmill.runCapturing(["updte", "--all"])
        #expect(result.status == 64)
        #expect(result.stderr == "feedmill: unknown command \"updte\": did you mean \"update\"?\n")
        #expect(try feedmill.runCapturing(["zzzzzz"]).stderr.contains("the commands are create, update, publish, inspect, feeds, pull"))
    }

    @Test func helpWithACommandIsThatCommandsHelp() throws {
        let help = try feedmill.runCapturing(["help", "publish"])
        #expect(help.status == 0)
        #expect(help.stdout == (try Executable(name: "rss-publish").runCapturing(["--help"])).stdout)
        #expect(try feedmill.runCapturing(["help", "publish", "extra"]).stdout == help.stdout)
        let unknown = try feedmill.runCapturing(["help", "publsh"])
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean \"publish\""), "\(unknown.stderr)")
    }

    @Test func versionNamesFeedmillAndTheCommit() throws {
        let version = try feedmill.runCapturing(["--version"]).stdout
        let update = try Executable(name: "rss-update").runCapturing(["--version"]).stdout
        #expect(version.hasPrefix("feedmill \(FeedmillVersion.current) "))
        #expect(version.dropFirst("feedmill".count) == update.dropFirst("rss-update".count))
    }
}

@Suite("MultiCall: which command a command line names")
struct MultiCallNamingTests {
    @Test func theNameCalledByOrTheFirstArgument() {
        #expect(MultiCall.command(in: ["/usr/bin/rss-update", "--feed", "2"])! == ("rss-update", ["--feed", "2"]))
        #expect(MultiCall.command(in: ["rss-pull"])! == ("rss-pull", []))
        #expect(MultiCall.command(in: ["/usr/bin/feedmill", "update", "--feed", "2"])! == ("rss-update", ["--feed", "2"]))
        #expect(MultiCall.command(in: ["feedmill", "rss-feeds", "list"])! == ("rss-feeds", ["list"]))
        // Called by the familiar name, a first argument that is a command's word is an argument.
        #expect(MultiCall.command(in: ["rss-feeds", "update"])! == ("rss-feeds", ["update"]))
        #expect(MultiCall.command(in: ["feedmill"]) == nil)
        #expect(MultiCall.command(in: ["feedmill", "--help"]) == nil)
        #expect(MultiCall.command(in: ["feedmill", "updte"]) == nil)
        #expect(MultiCall.command(in: []) == nil)
        // Renamed or copied elsewhere, it still reads its first argument.
        #expect(MultiCall.command(in: ["./feedmill-0.1", "inspect", "x.xml"])! == ("rss-inspect", ["x.xml"]))
    }
}
