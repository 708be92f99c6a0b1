/// One of N parts of the feed list, so that several machines (or processes) share the work
/// of one catalogue without a scheduler of Feedmill's own: each runs with `--shard K/N`.
///
/// A feed belongs to the shard of its host, never to the shard of its id: every feed of one
/// host is fetched by one shard, so the per-host limits (at most so many transfers in flight
/// to one host) hold across machines exactly as they hold inside one process.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// K, counted from 1.
    public let index: Int
    /// N.
    public let count: Int

    /// The whole feed list: what every command does without `--shard`.
    public static let all = Shard(uncheckedIndex: 1, count: 1)

    /// More shards than this is a typo, not a deployment (see docs/sharding.md).
    public static let largestCount = 1024

    public init(index: Int, count: Int) throws(ShardError) {
        guard (1...Self.largestCount).contains(count) else { throw .badCount(count) }
        guard (1...count).contains(index) else { throw .badIndex(index, count: count) }
        self.index = index
        self.count = count
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `K/N` as given on the command line (`3/4`).
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.number(parts[0]), let count = Self.number(parts[1]) else {
            throw .malformed(text)
        }
        try self.init(index: index, count: count)
    }

    /// `3/4`: how people and the published root name it.
    public var label: String { "\(index)/\(count)" }

    /// `3of4`: how file and object names carry it (no `/`).
    public var fileLabel: String { "\(index)of\(count)" }

    public var description: String { label }

    public var isAll: Bool { count == 1 }

    /// Whether the feed at `host` (a URL's host) is this shard's.
    public func owns(host: String?) -> Bool {
        ShardAssignment.shardIndex(ofHost: host, count: count) == index
    }

    /// Whether the feed at `url` is this shard's: the shard of its ``URLHost``, the host the
    /// fetcher's per-host limit counts (shard 1's when the URL has no host). Every command
    /// decides a feed's shard through this, so the feed one shard fetches is the feed it
    /// publishes.
    public func owns(url: String) -> Bool {
        ShardAssignment.shardIndex(ofURL: url, count: count) == index
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

/// Which shard a host belongs to: a hash that is the same on every machine, in every run and
/// in every Swift version (never `Hasher`, which is seeded per process).
public enum ShardAssignment {
    /// 1 + (FNV-1a 64 of the host, lower-cased, without a trailing dot) mod `count`; a feed
    /// without a host (a file path) is shard 1's.
    public static func shardIndex(ofHost host: String?, count: Int) -> Int {
        guard count > 1, var host, !host.isEmpty else { return 1 }
        if host.hasSuffix(".") { host.removeLast() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in host.lowercased().utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return 1 + Int(hash % UInt64(count))
    }

    /// The shard of the feed at `url`, among `count`: that of its ``URLHost``. One shard is
    /// answered without reading the URL: a run without `--shard` asks for every feed.
    public static func shardIndex(ofURL url: String, count: Int) -> Int {
        guard count > 1 else { return 1 }
        return shardIndex(ofHost: URLHost.of(url), count: count)
    }
}

public enum ShardError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case badCount(Int)
    case badIndex(Int, count: Int)

    public var description: String {
        switch self {
        case .malformed(let text): return "'\(text)' is not a shard: write K/N, for example 2/4 (shard 2 of 4)"
        case .badCount(let count): return "\(count) shards: the count must be between 1 and \(Shard.largestCount)"
        case .badIndex(let index, let count): return "shard \(index) of \(count) does not exist: K runs from 1 to \(count)"
        }
    }
}
