import ArgumentParser
import FeedStorage
import Foundation

/// Shell completion of feedids (`--feed`, rss-feeds' `<feedid>` arguments): the shell runs
/// the command itself (swift-argument-parser's `---completion`), which reads the catalog of
/// the data directory the command line would use: `--data-dir` as typed so far, else the
/// environment and the configuration file (`--config` as typed, else the usual search), else
/// the default. It never fails aloud: no catalog, an unreadable one or a bad setting offers
/// nothing, and the shell falls back to no candidates, exit status 0.
public enum FeedIDCompletion {
    /// The completion for an option or argument that takes feedids, for `command`'s settings.
    public static func kind(for command: CommandName) -> CompletionKind {
        // ArgumentParser's prefix is read from the last word, whichever word is completed
        // (`rss-feeds set 1<Tab> --data-dir d`): the word at the index is the one typed.
        .custom { words, index, prefix in
            candidates(command: command, words: words, prefix: words.indices.contains(index) ? words[index] : prefix)
        }
    }

    /// The feedids of the catalog the command line names that start with `prefix`.
    public static func candidates(
        command: CommandName, words: [String], prefix: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        guard let directory = dataDirectory(command: command, words: words, environment: environment) else { return [] }
        let catalog = DataDirectory(directory).catalogPath
        guard FileManager.default.isReadableFile(atPath: catalog), let ids = try? Catalog.feedIDs(at: catalog) else { return [] }
        return ids.map(String.init).filter { $0.hasPrefix(prefix) }
    }

    /// The data directory the command would use, given the words typed so far.
    static func dataDirectory(command: CommandName, words: [String], environment: [String: String]) -> String? {
        if let typed = value(of: "--data-dir", in: words) { return typed }
        guard let located = try? ConfigFileLocator.load(commandLine: value(of: "--config", in: words), environment: environment),
            let settings = try? ResolvedSettings(
                command: command, settings: [Settings.dataDirectory], environment: environment, configFile: located.file,
                configSource: located.source)
        else { return nil }
        return try? settings.value(Settings.dataDirectory)
    }

    /// The last value typed for `option` (`--data-dir DIR` or `--data-dir=DIR`), as the shell
    /// would pass it: quotes taken off, a leading `~/` expanded.
    static func value(of option: String, in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.enumerated() {
            if word == option, index + 1 < words.count {
                found = words[index + 1]
            } else if word.hasPrefix(option + "=") {
                found = String(word.dropFirst(option.count + 1))
            }
        }
        return found.map(unquoted).flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func unquoted(_ word: String) -> String {
        var text = word
        if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
            text = String(text.dropFirst().dropLast())
        }
        text = text.replacingOccurrences(of: "\\ ", with: " ")
        if text == "~" || text.hasPrefix("~/") { text = NSHomeDirectory() + text.dropFirst() }
        return text
    }
}
