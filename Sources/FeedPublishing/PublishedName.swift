import FeedBasics
import FeedStorage

/// Every name the publisher gives a file, in both directions: ``fileName`` writes it and
/// ``init(fileName:)`` reads it back, so the names written and the names recognised as the
/// publisher's own (and so the only ones it may ever remove) cannot drift apart.
///
/// Only the form the publisher writes is read back: `feed_3.v2.sqlite`, never
/// `feed_03.v2.sqlite` or a version past ``Manifest/largestCount`` (no publisher counts that
/// far), and content digests in lower-case hex of exactly 64 digits: a file named
/// `feed_3.v9223372036854775807.sqlite` is someone else's, left alone and never taken as a
/// version to count above.
///
/// Format 2 names immutable files by their SHA-256 (`feed_3.<sha256>.sqlite`), so a name
/// already there holds the bytes it would be given; the format-1 names (`feed_3.v2.sqlite`,
/// `feed_3.v1-v2.delta.json`, `all_feeds.v4.sqlite`, `.feedmill-publisher.json`) are still
/// the publisher's own, so a directory published in format 1 is upgraded in place.
public enum PublishedName: Hashable, Sendable {
    /// `feed_3.sqlite`: the stable name clients of the original z_rss layout sync, which is
    /// the feed database's own name in the data directory (``DataDirectory``).
    case feed(Int64)
    /// `feed_3.v2.sqlite`: one version of a feed's snapshot (format 1).
    case feedVersion(Int64, version: Int)
    /// `feed_3.v1-v2.delta.json`: from one version of a feed to another (format 1).
    case feedDelta(Int64, from: Int, to: Int)
    /// `all_feeds.sqlite`: the catalog's stable name.
    case catalog
    /// `all_feeds.v4.sqlite`: one version of the catalog's snapshot (format 1).
    case catalogVersion(Int)
    /// `atom.xml`: the aggregated feed.
    case atom
    /// `index.html`: the page for people.
    case index
    /// `feed_3.<sha256>.sqlite`: a feed snapshot, named by its bytes' SHA-256 (format 2).
    case feedSnapshot(Int64, sha256: String)
    /// `feed_3.<sha256>.delta.json`: a delta, named by its bytes' SHA-256 (format 2).
    case feedDeltaFile(Int64, sha256: String)
    /// `all_feeds.<sha256>.sqlite`: a catalog snapshot, named by its bytes' SHA-256 (format 2).
    case catalogSnapshot(sha256: String)
    /// `feed_3.json`: the feed's pointer, which clients revalidate (format 2).
    case pointer(Int64)
    /// `publisher.2of4.<sha256>.json`: a shard's publisher record (format 2); clients never read it.
    case record(Shard, sha256: String)
    /// `.feedmill-intent.2of4.json`: what a shard's publication in progress will write.
    case intent(Shard)
    /// `.feedmill-publisher.json`: format 1's copy of the manifest.
    case legacyRecord
    /// `publisher.2of4.p3.<sha256>.json`: the entries of feeds 3000-3999 of a shard's record,
    /// which names it with its SHA-256 (issue 51: a record rewritten whole was 49 MB at 100,000
    /// feeds); clients never read it.
    case recordPage(Shard, page: Int, sha256: String)
    /// `catalog_page_3.<sha256>.json`: the catalog's rows of feeds 750-999 (issue 51).
    case catalogPage(Int, sha256: String)
    /// `catalog_pages_3.<sha256>.json`: pages 192-255 of the catalog, a page group.
    case catalogPageGroup(Int, sha256: String)
    /// `catalog_titles.<sha256>.json`: a run of the title index.
    case catalogTitles(sha256: String)
    /// `catalog_title_group.<sha256>.json`: consecutive runs of the title index.
    case catalogTitleGroup(sha256: String)
    /// `catalog_index.<sha256>.json`: the page groups and title groups, named by the root.
    case catalogIndex(sha256: String)

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
        case .feedSnapshot(let id, let sha256): return "feed_\(id).\(sha256).sqlite"
        case .feedDeltaFile(let id, let sha256): return "feed_\(id).\(sha256).delta.json"
        case .catalogSnapshot(let sha256): return "all_feeds.\(sha256).sqlite"
        case .pointer(let id): return "feed_\(id).json"
        case .record(let shard, let sha256): return "publisher.\(shard.fileLabel).\(sha256).json"
        case .intent(let shard): return ".feedmill-intent.\(shard.fileLabel).json"
        case .legacyRecord: return ".feedmill-publisher.json"
        case .recordPage(let shard, let page, let sha256): return "publisher.\(shard.fileLabel).p\(page).\(sha256).json"
        case .catalogPage(let page, let sha256): return "catalog_page_\(page).\(sha256).json"
        case .catalogPageGroup(let group, let sha256): return "catalog_pages_\(group).\(sha256).json"
        case .catalogTitles(let sha256): return "catalog_titles.\(sha256).json"
        case .catalogTitleGroup(let sha256): return "catalog_title_group.\(sha256).json"
        case .catalogIndex(let sha256): return "catalog_index.\(sha256).json"
        }
    }

    /// The name `fileName` is, when the publisher gives names like it; `nil` for any other.
    public init?(fileName name: String) {
        guard let parsed = Self.parse(name), parsed.fileName == name else { return nil }
        self = parsed
    }

    /// The snapshot a format-1 versioned name belongs to, with the highest version it names (a
    /// delta names two); `nil` for every other name (format 2 names carry no version).
    public var version: (snapshot: Snapshot, version: Int)? {
        switch self {
        case .feedVersion(let id, let version): return (.feed(id), version)
        case .feedDelta(let id, let from, let to): return (.feed(id), max(from, to))
        case .catalogVersion(let version): return (.catalog, version)
        default: return nil
        }
    }

    /// A name nobody replaces once it is put: its bytes are its name (format 2) or its version (format 1).
    public var isImmutable: Bool {
        switch self {
        case .feedVersion, .feedDelta, .catalogVersion, .feedSnapshot, .feedDeltaFile, .catalogSnapshot, .record, .catalogPage, .catalogTitles,
            .catalogIndex, .recordPage, .catalogPageGroup, .catalogTitleGroup:
            return true
        default: return false
        }
    }

    /// Whether `text` is a SHA-256 as the publisher writes it: 64 lower-case hex digits.
    public static func isDigest<Text: StringProtocol>(_ text: Text) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func parse(_ name: String) -> PublishedName? {
        switch name {
        case "atom.xml": return .atom
        case "index.html": return .index
        case DataDirectory.catalogFileName: return .catalog
        case PublishedName.legacyRecord.fileName: return .legacyRecord
        default: break
        }
        if name.hasPrefix(".feedmill-intent."), name.hasSuffix(".json") {
            return shard(name.dropFirst(".feedmill-intent.".count).dropLast(".json".count)).map { .intent($0) }
        }
        if name.hasPrefix("publisher."), name.hasSuffix(".json") {
            let parts = name.dropFirst("publisher.".count).dropLast(".json".count).split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 3, let shard = shard(parts[0]), parts[1].hasPrefix("p"), let page = count(parts[1].dropFirst()), isDigest(parts[2]) {
                return .recordPage(shard, page: page, sha256: String(parts[2]))
            }
            guard parts.count == 2, let shard = shard(parts[0]), isDigest(parts[1]) else { return nil }
            return .record(shard, sha256: String(parts[1]))
        }
        if name.hasPrefix("catalog_"), name.hasSuffix(".json") {
            let parts = name.dropLast(".json".count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, isDigest(parts[1]) else { return nil }
            switch parts[0] {
            case "catalog_titles": return .catalogTitles(sha256: String(parts[1]))
            case "catalog_title_group": return .catalogTitleGroup(sha256: String(parts[1]))
            case "catalog_index": return .catalogIndex(sha256: String(parts[1]))
            default:
                // A page or group number: any a feedid gives (the largest feedid's page is past the counts).
                if parts[0].hasPrefix("catalog_pages_"), let group = digits(parts[0].dropFirst("catalog_pages_".count)) {
                    return .catalogPageGroup(Int(group), sha256: String(parts[1]))
                }
                guard parts[0].hasPrefix("catalog_page_"), let page = digits(parts[0].dropFirst("catalog_page_".count)) else { return nil }
                return .catalogPage(Int(page), sha256: String(parts[1]))
            }
        }
        if name.hasPrefix("all_feeds."), name.hasSuffix(".sqlite") {
            let middle = name.dropFirst("all_feeds.".count).dropLast(".sqlite".count)
            if isDigest(middle) { return .catalogSnapshot(sha256: String(middle)) }
            guard middle.hasPrefix("v") else { return nil }
            return count(middle.dropFirst()).map { .catalogVersion($0) }
        }
        guard name.hasPrefix("feed_") else { return nil }
        let parts = name.dropFirst("feed_".count).split(separator: ".", omittingEmptySubsequences: false)
        guard let id = parts.first.flatMap(identifier) else { return nil }
        switch parts.count {
        case 2 where parts[1] == "sqlite":
            return .feed(id)
        case 2 where parts[1] == "json":
            return .pointer(id)
        case 3 where parts[2] == "sqlite" && isDigest(parts[1]):
            return .feedSnapshot(id, sha256: String(parts[1]))
        case 3 where parts[2] == "sqlite" && parts[1].hasPrefix("v"):
            return count(parts[1].dropFirst()).map { .feedVersion(id, version: $0) }
        case 4 where parts[2] == "delta" && parts[3] == "json" && isDigest(parts[1]):
            return .feedDeltaFile(id, sha256: String(parts[1]))
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

    /// `2of4` as file names carry a shard.
    private static func shard(_ text: Substring) -> Shard? {
        let parts = text.split(separator: "o", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].hasPrefix("f"), let index = digits(parts[0]), let count = digits(parts[1].dropFirst()),
            let index = Int(exactly: index), let count = Int(exactly: count)
        else { return nil }
        return try? Shard(index: index, count: count)
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
        guard !text.isEmpty, text.count <= 19, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
