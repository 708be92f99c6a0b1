import FeedBasics

/// The shard a command works on (docs/sharding.md): `rss-create` and `rss-update` fetch only
/// the feeds of their shard's hosts; `rss-publish` publishes only them.
///
/// Declared once here, so that every command that takes `--shard` reads, checks and shows it
/// the same way (command line, `FEEDMILL_SHARD`, `shard = "2/4"` in the file).
extension Settings {
    public static let shard = Setting(
        "shard", type: .shard, default: Shard.all, valueName: "K/N",
        "Work on shard K of N only: the feeds whose host hashes to K (docs/sharding.md); 1/1 is every feed.")
}

extension SettingType where Value == Shard {
    /// `K/N`, 1 ≤ K ≤ N ≤ 1024.
    static var shard: Self {
        Self(
            expected: "K/N with 1 <= K <= N <= \(Shard.largestCount), for example 2/4",
            read: { try? Shard(parsing: $0) }, write: { $0.label })
    }
}

extension Shard {
    /// For `@Option(transform:)`: `--shard 5/4` is refused by ArgumentParser with the shard's
    /// own message (exit status 64), before the command does anything.
    public static func argument(_ text: String) throws -> Shard {
        do {
            return try Shard(parsing: text)
        } catch {
            throw ShardArgumentError(message: error.description)
        }
    }
}

/// ``ShardError`` as ArgumentParser prints it.
public struct ShardArgumentError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
