import Foundation

/// `manifest.json` of publication format 2: the root. It names the catalog and, per shard, the
/// publication last committed; it holds no per-feed data (that is in each feed's pointer,
/// ``FeedPointer``), so a client following 50 of a million feeds reads ~1 KB here and one
/// pointer per followed feed, revalidated with its ETag.
public struct RootManifest: Decodable, Sendable, Equatable {
    public var generation: Int
    /// By shard label (`1/1`, `3/4`): the publication each shard last committed.
    public var shards: [String: ShardCommit]
    public var catalog: ManifestFile
    /// The pointer's name, `{feedid}` standing for the feed's id (`feed_{feedid}.json`).
    public var feedPointer: String

    enum CodingKeys: String, CodingKey {
        case generation, shards, catalog
        case feedPointer = "feed_pointer"
    }

    public static let formatVersion = 2

    /// Parses the bytes of a `manifest.json` whose header says format version 2, and checks
    /// what the client would otherwise misuse: the catalog's names, the pointer template.
    static func decode(_ data: Data, from url: URL) throws(ClientError) -> RootManifest {
        let root: RootManifest
        do {
            root = try JSONDecoder().decode(RootManifest.self, from: data)
        } catch {
            throw .manifestUnreadable(url: url, reason: ClientError.describe(decoding: error))
        }
        guard root.feedPointer.components(separatedBy: "{feedid}").count == 2, SafeName.isPlain(root.pointerName(for: 1)) else {
            throw .manifestUnreadable(url: url, reason: "feed_pointer \"\(root.feedPointer)\" is not a plain file name with one {feedid}")
        }
        guard root.catalog.contentDigest != nil else {
            throw .manifestUnreadable(url: url, reason: "the catalog has no content_digest")
        }
        return root
    }

    /// The name of feed `feedID`'s pointer.
    public func pointerName(for feedID: Int64) -> String {
        feedPointer.replacingOccurrences(of: "{feedid}", with: String(feedID))
    }

    /// The client rule of the contract: an entry is usable for this root when its shard is in
    /// the root and the entry is older than the shard's commit, or is that very commit (same
    /// generation and publication). A newer one belongs to a publication still in flight; one
    /// of the same generation by another publication, to a publisher that died before it
    /// committed. Nil: none is usable yet.
    public func firstUsable(of pointer: FeedPointer) -> PointerEntry? {
        pointer.entries.first { entry in
            guard let commit = shards[entry.shard] else { return false }
            return entry.generation < commit.generation || (entry.generation == commit.generation && entry.publication == commit.publication)
        }
    }
}

/// A shard's commit as the root names it.
public struct ShardCommit: Decodable, Sendable, Equatable {
    public var generation: Int
    public var publication: String
}

/// The format and version every `manifest.json` starts with, read first to pick the reader.
struct ManifestHeader: Decodable {
    var format: String?
    var formatVersion: Int?

    enum CodingKeys: String, CodingKey {
        case format
        case formatVersion = "format_version"
    }

    /// The format version to read with: 0 for a manifest from before the contract had one,
    /// 1 (``PublicationManifest``) or 2 (``RootManifest``); anything else is refused.
    static func version(of data: Data, from url: URL) throws(ClientError) -> Int {
        let header: ManifestHeader
        do {
            header = try JSONDecoder().decode(ManifestHeader.self, from: data)
        } catch {
            throw .manifestUnreadable(url: url, reason: ClientError.describe(decoding: error))
        }
        guard header.format != nil || header.formatVersion != nil else { return 0 }
        guard header.format == PublicationManifest.knownFormat, let version = header.formatVersion,
            PublicationManifest.knownFormatVersions.contains(version)
        else {
            throw .unsupportedFormat(url: url, format: header.format ?? "(none)", version: header.formatVersion)
        }
        return version
    }
}
