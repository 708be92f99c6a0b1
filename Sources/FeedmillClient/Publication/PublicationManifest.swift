import Foundation

/// `manifest.json` of publication format 1 (and 0, before the contract had a version) as a
/// client reads it; format 2's is ``RootManifest``. Only the fields the client contract gives clients
/// (the publisher's own bookkeeping, `history`, `source_fingerprint`, `retired_files`, is
/// ignored). Unknown fields are ignored too: additive fields never raise `format_version`.
public struct PublicationManifest: Decodable, Sendable, Equatable {
    /// `feedmill-manifest`; absent in manifests written before the contract had a version.
    public var format: String?
    public var formatVersion: Int?
    /// Raised by every publication that changed anything: lower than the last one applied
    /// means a stale copy (a CDN, a mirror).
    public var generation: Int
    public var catalog: ManifestFile?
    public var feeds: [ManifestFile]

    enum CodingKeys: String, CodingKey {
        case format, generation, catalog, feeds
        case formatVersion = "format_version"
    }

    /// The manifest format this client reads, and its versions: 1 with this type, 2 with
    /// ``RootManifest`` (a publication upgraded in place from 1 to 2 keeps syncing).
    public static let knownFormat = "feedmill-manifest"
    public static let knownFormatVersions = 1...2

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(String.self, forKey: .format)
        formatVersion = try container.decodeIfPresent(Int.self, forKey: .formatVersion)
        generation = try container.decode(Int.self, forKey: .generation)
        catalog = try container.decodeIfPresent(ManifestFile.self, forKey: .catalog)
        feeds = try container.decodeIfPresent([ManifestFile].self, forKey: .feeds) ?? []
    }

    /// Parses the bytes of `manifest.json`.
    public static func decode(_ data: Data, from url: URL) throws(ClientError) -> PublicationManifest {
        do {
            return try JSONDecoder().decode(PublicationManifest.self, from: data)
        } catch {
            throw .manifestUnreadable(url: url, reason: ClientError.describe(decoding: error))
        }
    }

}

/// The catalog or one feed as the manifest describes its current version.
public struct ManifestFile: Decodable, Sendable, Equatable {
    /// The feed's id; nil for the catalog.
    public var feedID: Int64?
    /// The stable name an app opens (`all_feeds.sqlite`, `feed_3.sqlite`): the local file's name.
    public var name: String
    /// The versioned file to download (`feed_3.v7.sqlite`).
    public var file: String
    public var version: Int
    public var sha256: String
    public var size: Int
    public var schemaVersion: Int
    /// `sha256:<hex>` over the rows (see the client contract); absent before format version 1.
    public var contentDigest: String?
    public var deltas: [ManifestDelta]
    /// When the feed's items last changed (`last_update_unix_time`); nil for the catalog, or
    /// when never stored.
    public var lastUpdate: Int64?

    enum CodingKeys: String, CodingKey {
        case name, file, version, sha256, size, deltas
        case feedID = "feedid"
        case schemaVersion = "schema_version"
        case contentDigest = "content_digest"
        case lastUpdate = "last_update_unix_time"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        feedID = try container.decodeIfPresent(Int64.self, forKey: .feedID)
        name = try container.decode(String.self, forKey: .name)
        file = try container.decode(String.self, forKey: .file)
        version = try container.decode(Int.self, forKey: .version)
        sha256 = try container.decode(String.self, forKey: .sha256)
        size = try container.decode(Int.self, forKey: .size)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        contentDigest = try container.decodeIfPresent(String.self, forKey: .contentDigest)
        deltas = try container.decodeIfPresent([ManifestDelta].self, forKey: .deltas) ?? []
        // A value of another type is read as absent: it only ever fills a local catalog's row.
        lastUpdate = try? container.decodeIfPresent(Int64.self, forKey: .lastUpdate)
    }
}

/// A delta the manifest offers from an earlier version to the current one.
public struct ManifestDelta: Decodable, Sendable, Equatable {
    public var fromVersion: Int
    public var file: String
    public var sha256: String
    public var size: Int

    enum CodingKeys: String, CodingKey {
        case file, sha256, size
        case fromVersion = "from_version"
    }
}
