import ArgumentParser

extension SingleValueParsingStrategy {
    /// For every option that takes a number: the word after the option is its value even when
    /// it starts with a dash. ArgumentParser otherwise reads `-3` as an option and says
    /// "Missing value for '--limit'", which sends a person looking for a value they gave;
    /// this way `--limit -3` (and `--limit=-3`) reach the option's own check, which says what
    /// is wrong with the number. The price, `--limit --all` taking `--all` as the value, is
    /// said plainly too ("The value '--all' is invalid for '--limit <n>'").
    public static var number: Self { .unconditional }
}

extension ArrayParsingStrategy {
    /// ``SingleValueParsingStrategy/number`` for a repeatable option (`--feed`).
    public static var number: Self { .unconditionalSingleValue }
}

/// Checks of numbers given on the command line that no setting holds (`--limit`, `--feed`),
/// said alike by every command: the option, what it takes, what was given. Thrown from
/// `validate()`, so the run ends with status 64 before it starts.
public enum NumberArgument {
    /// `value` must be 1 or more: `--limit must be a whole number of 1 or more; got -3`.
    public static func requirePositive(_ value: Int?, option: String) throws {
        if let value, value < 1 { throw ValidationError("\(option) must be a whole number of 1 or more; got \(value)") }
    }

    /// Feedids given as arguments (`rss-feeds remove <feedid> ...`), said without an option.
    public static func requireFeedIDArguments(_ ids: [Int64]) throws {
        if let wrong = ids.first(where: { $0 < 1 }) { throw ValidationError("a feedid is a whole number of 1 or more; got \(wrong)") }
    }

    /// Feedids are 1 or more: `--feed must be a feedid (a whole number of 1 or more); got -3`.
    public static func requireFeedIDs(_ ids: [Int64], option: String = "--feed") throws {
        if let wrong = ids.first(where: { $0 < 1 }) {
            throw ValidationError("\(option) must be a feedid (a whole number of 1 or more); got \(wrong)")
        }
    }
}
