import FeedBasics
import FeedCommandSupport
import Foundation

/// What `feedmill` says when its command line names no command: `feedmill --help` and
/// `feedmill help` list the commands (status 0), `feedmill --version` prints the version,
/// `feedmill --generate-completion-script SHELL` the completion of the `feedmill <command>` form,
/// and a mistyped word names the nearest command
/// (status 64, as every usage error).
enum MultiCallUsage {
    static var text: String {
        let width = MultiCall.commands.map(\.word.count).max() ?? 0
        let lines = MultiCall.commands.map { "  \($0.word.padding(toLength: width, withPad: " ", startingAt: 0))   same as \($0.name)" }
        return """
            USAGE: feedmill <command> [<arguments>...]
                   rss-<command> [<arguments>...]

            Feedmill fetches feeds, keeps their items in SQLite databases and publishes them for
            offline-first readers. Every command is this one executable, by either name:
            "feedmill update --feed 2" and "rss-update --feed 2" are the same command.

            COMMANDS:
            \(lines.joined(separator: "\n"))

            "feedmill help <command>" or "rss-<command> --help" for a command's options.

            """
    }

    /// `feedmill help update`: the command and the arguments that ask it for its help.
    static func helpRequest(_ arguments: ArraySlice<String>) -> (name: String, arguments: [String])? {
        guard arguments.first == "help", let word = arguments.dropFirst().first, let name = MultiCall.name(of: word) else { return nil }
        return (name, ["--help"])
    }

    /// Prints what `arguments` (after `feedmill`) ask for and returns the exit status.
    static func run(_ arguments: ArraySlice<String>, version: String) -> Int32 {
        switch arguments.first {
        case nil:
            FileHandle.standardError.write(Data(text.utf8))
            return ExitStatus.usage
        case "-h", "--help":
            print(text, terminator: "")
            return 0
        case "help":
            // `feedmill help update` never gets here (helpRequest); `feedmill help zzz` does.
            guard let word = arguments.dropFirst().first else {
                print(text, terminator: "")
                return 0
            }
            return unknown(word)
        case "--version":
            print(version)
            return 0
        case "--generate-completion-script":
            let shell = arguments.dropFirst().first ?? ""
            guard let script = MultiCallCompletions.script(for: shell) else {
                FileHandle.standardError.write(Data("feedmill: --generate-completion-script takes bash, zsh or fish; got \"\(shell)\"\n".utf8))
                return ExitStatus.usage
            }
            print(script, terminator: "")
            return 0
        case let word?:
            return unknown(word)
        }
    }

    private static func unknown(_ word: String) -> Int32 {
        let words = MultiCall.commands.map(\.word)
        let suggestion = NearestName.suggestion(for: word, among: words).map { ": did you mean \"\($0)\"?" }
            ?? "; the commands are " + words.joined(separator: ", ")
        FileHandle.standardError.write(Data("feedmill: unknown command \"\(word)\"\(suggestion)\n".utf8))
        return ExitStatus.usage
    }
}
