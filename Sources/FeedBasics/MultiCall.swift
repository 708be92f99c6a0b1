/// Feedmill is one executable, `feedmill`, called by several names as git and busybox are:
/// `rss-update --feed 2` (a link named `rss-update`) and `feedmill update --feed 2` run the same
/// command with the same arguments. This is the one table of those names, read by the
/// executable to dispatch and by the commands to know the arguments they were given (a
/// message that suggests a command line repeats them).
public enum MultiCall {
    /// The executable's own name.
    public static let executable = "feedmill"

    /// Each command: its word after `feedmill` and its familiar name, in the order `feedmill
    /// --help` lists them.
    public static let commands: [(word: String, name: String)] = [
        ("create", "rss-create"),
        ("update", "rss-update"),
        ("publish", "rss-publish"),
        ("inspect", "rss-inspect"),
        ("feeds", "rss-feeds"),
        ("pull", "rss-pull"),
    ]

    /// The command a process runs and the arguments it gives that command, from its whole
    /// command line (`CommandLine.arguments`): `rss-update …` by the name it was called by
    /// (the last path component), `feedmill update …` (or `feedmill rss-update …`) by its first
    /// argument. Nil when the line names no command: `feedmill` alone, `feedmill --help`, a
    /// mistyped word.
    public static func command(in commandLine: [String]) -> (name: String, arguments: [String])? {
        guard let first = commandLine.first else { return nil }
        let calledAs = first.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? first
        if let name = name(of: calledAs) { return (name, Array(commandLine.dropFirst())) }
        guard commandLine.count > 1, let name = name(of: commandLine[1]) else { return nil }
        return (name, Array(commandLine.dropFirst(2)))
    }

    /// The familiar name for `word` (`update` or `rss-update`), nil for anything else.
    public static func name(of word: String) -> String? {
        commands.first { $0.word == word || $0.name == word }?.name
    }
}
