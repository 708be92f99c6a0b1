import FeedStorage

/// Every name the publisher gives a file, in both directions: ``fileName`` writes it and
/// ``init(fileName:)`` reads it back, so the names written and the names recognised as the
/// publisher's own (and so the only ones it may ever remove) cannot drift apart.
///
/// Only the form the publisher writes is read back: `feed_3.v2.sqlite`, never
/// `feed_03.v2.sqlite` or a version past ``Manifest/largestCount`` (no publisher counts that
/// far): a file named `feed_3.v9223372036854775807.sqlite` is someone else's, left alone and
/// never taken as a version to count above.
public enum PublishedName: Hashable, Sendable {
    /// `feed_3.sqlite`: the stable name clients of the original z_rss layout sync, which is
    /// the feed database's own name in the data directory (``DataDirectory``).
    case feed(Int64)
    /// `feed_3.v2.sqlite`: one version of a feed's snapshot.
    case feedVersion(Int64, version: Int)
    /// `feed_3.v1-v2.delta.json`: from one version of a feed to another.
    case feedDelta(Int64, from: Int, to: Int)
    /// `all_feeds.sqlite`: the catalog's stable name.
    case catalog
    /// `all_feeds.v4.sqlite`: one version of the catalog's snapshot.
    case catalogVersion(Int)
    /// `atom.xml`: the aggregated feed.
    case atom
    /// `index.html`: the page for people.
    case index

    /// Whose versions a name counts: a feed's or the catalog's.
    public enum Snapshot: Hashable, Sendable {
        case feed(Int64)
        case catalog
    }

    public var fileName: String {
        switch self {
        case .feed(let id): return DataDirectory.feedDatabaseFileName(id)
        case .feedVersion(let id, let version): return "feed_\(id).v\(version).sqlite"
        case .feedDelta(let id, let from, let to): return "feed_\(id).v\(from)-v\(to).delta.json"
        case .catalog: return DataDirectory.catalogFileName
        case .catalogVersion(let version): return "all_feeds.v\(version).sqlite"
        case .atom: return "atom.xml"
        case .index: return "index.html"
        }
    }

    /// The name `fileName` is, when the publisher gives names like it; `nil` for any other.
    public init?(fileName name: String) {
        guard let parsed = Self.parse(name), parsed.fileName == name else { return nil }
        self = parsed
    }

    /// The snapshot a versioned name belongs to, with the highest version it names (a delta
    /// names two); `nil` for stable names and pages.
    public var version: (snapshot: Snapshot, version: Int)? {
        switch self {
        case .feedVersion(let id, let version): return (.feed(id), version)
        case .feedDelta(let id, let from, let to): return (.feed(id), max(from, to))
        case .catalogVersion(let version): return (.catalog, version)
        case .feed, .catalog, .atom, .index: return nil
        }
    }

    private static func parse(_ name: String) -> PublishedName? {
        switch name {
        case "atom.xml": return .atom
        case "index.html": return .index
        case DataDirectory.catalogFileName: return .catalog
        default: break
        }
        if name.hasPrefix("all_feeds.v"), name.hasSuffix(".sqlite") {
            return count(name.dropFirst("all_feeds.v".count).dropLast(".sqlite".count)).map { .catalogVersion($0) }
        }
        guard name.hasPrefix("feed_") else { return nil }
        let parts = name.dropFirst("feed_".count).split(separator: ".", omittingEmptySubsequences: false)
        guard let id = parts.first.flatMap(identifier) else { return nil }
        switch parts.count {
        case 2 where parts[1] == "sqlite":
            return .feed(id)
        case 3 where parts[2] == "sqlite" && parts[1].hasPrefix("v"):
            return count(parts[1].dropFirst()).map { .feedVersion(id, version: $0) }
        case 4 where parts[2] == "delta" && parts[3] == "json":
            let versions = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard versions.count == 2, versions.allSatisfy({ $0.hasPrefix("v") }),
                let from = count(versions[0].dropFirst()), let to = count(versions[1].dropFirst())
            else { return nil }
            return .feedDelta(id, from: from, to: to)
        default:
            return nil
        }
    }

    /// A version as the publisher counts them: one it could have counted to, in its own digits.
    private static func count(_ text: Substring) -> Int? {
        digits(text).flatMap { Int(exactly: $0) }.flatMap { $0 <= Manifest.largestCount ? $0 : nil }
    }

    /// A feed id: the catalog's rowid, any the catalog can hold (it is given, not counted).
    private static func identifier(_ text: Substring) -> Int64? {
        digits(text)
    }

    /// Decimal digits and nothing else (no sign), as the publisher writes its numbers.
    private static func digits(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
