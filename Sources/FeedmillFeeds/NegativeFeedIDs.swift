/// `rss-feeds remove -3` and `rss-feeds set -3 …`: ArgumentParser reads `-3` as an option and
/// says "Missing expected argument '<feedid>'", which sends a person looking for a feedid they
/// gave. Such a word is moved behind `--` (where every word is an argument), so the
/// subcommand's own check refuses it for what it is ("a feedid is a whole number of 1 or
/// more; got -3"). A negative number that is an option's value stays where it is.
enum NegativeFeedIDs {
    /// The options of `remove` and `set` that take a value (the next word is theirs).
    static let optionsWithValues: Set<String> = ["--keep-items", "--keep-days", "--data-dir", "--config", "--log-format", "--now"]

    /// `arguments` (the subcommand first) with each negative number that is not an option's
    /// value moved behind a `--`; unchanged when there is none, or a `--` already.
    static func movedBehindTerminator(_ arguments: [String]) -> [String] {
        guard let subcommand = arguments.first, ["remove", "set"].contains(subcommand), !arguments.contains("--") else { return arguments }
        var kept: [String] = []
        var moved: [String] = []
        for (index, word) in arguments.enumerated() {
            let isNegativeNumber = word.count > 1 && word.hasPrefix("-") && word.dropFirst().allSatisfy(\.isASCII) && word.dropFirst().allSatisfy(\.isNumber)
            if index > 0, isNegativeNumber, !optionsWithValues.contains(arguments[index - 1]) {
                moved.append(word)
            } else {
                kept.append(word)
            }
        }
        return moved.isEmpty ? arguments : kept + ["--"] + moved
    }
}
