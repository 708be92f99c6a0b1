import Foundation

/// `feed_<id>.json` of publication format 2: a feed's current published version and the one
/// committed before it (at most two entries, newest first), so that a client holding the
/// previous root still finds a usable entry while a publication is in flight. The client picks
/// the entry with ``RootManifest/firstUsable(of:)``.
public struct FeedPointer: Decodable, Sendable, Equatable {
    public var format: String
    public var formatVersion: Int
    public var feedID: Int64
    public var entries: [PointerEntry]
    /// What a reader shows for the feed (since issue 51); nil from an older publisher.
    public var about: FeedAbout?

    enum CodingKeys: String, CodingKey {
        case format, entries, about
        case formatVersion = "format_version"
        case feedID = "feedid"
    }

    public static let knownFormat = "feedmill-feed-pointer"
    public static let knownFormatVersions = 2...2

    /// Parses and checks the pointer fetched as `name` for feed `feedID`. Refused whole (not
    /// one entry of it) when it is another format, for another feed, or names any file outside
    /// the publication's names for this feed: such a pointer was not written by a publisher.
    static func decode(_ data: Data, name: String, feedID: Int64, url: URL) throws(ClientError) -> FeedPointer {
        var pointer: FeedPointer
        do {
            pointer = try JSONDecoder().decode(FeedPointer.self, from: data)
        } catch {
            throw .manifestUnreadable(url: url, reason: ClientError.describe(decoding: error))
        }
        guard pointer.format == knownFormat, knownFormatVersions.contains(pointer.formatVersion) else {
            throw .unsupportedFormat(url: url, format: pointer.format, version: pointer.formatVersion)
        }
        guard pointer.feedID == feedID else { throw .wrongFeed(pointer: name, feedID: pointer.feedID, expected: feedID) }
        for index in pointer.entries.indices {
            pointer.entries[index].file.feedID = feedID
            try pointer.entries[index].check(feedID: feedID)
        }
        return pointer
    }
}

/// A feed's `feeds.url` and `about` row as its pointer gives them (docs/client-contract.md,
/// the pointer): what a client following a few feeds lists them with, without the catalog.
public struct FeedAbout: Decodable, Sendable, Equatable {
    public var url: String
    public var title: String?
    public var link: String?
    public var description: String?
    public var imageURL: String?
    public var language: String?

    enum CodingKeys: String, CodingKey {
        case url, title, link, description, language
        case imageURL = "image_url"
    }

    public init(url: String, title: String? = nil, link: String? = nil, description: String? = nil, imageURL: String? = nil, language: String? = nil) {
        (self.url, self.title, self.link, self.description, self.imageURL, self.language) = (url, title, link, description, imageURL, language)
    }
}

/// One published version of a feed in its pointer: which shard's publication wrote it, and
/// the file and deltas as format 1's manifest gave them (``ManifestFile``).
public struct PointerEntry: Decodable, Sendable, Equatable {
    /// The shard's label (`1/1`).
    public var shard: String
    public var generation: Int
    public var publication: String
    public var file: ManifestFile

    enum CodingKeys: String, CodingKey {
        case shard, generation, publication
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        shard = try container.decode(String.self, forKey: .shard)
        generation = try container.decode(Int.self, forKey: .generation)
        publication = try container.decode(String.self, forKey: .publication)
        file = try ManifestFile(from: decoder)
    }

    /// Every name the entry gives is this feed's, in the publication's patterns: the stable
    /// name the app opens, content-addressed snapshots and deltas whose hex is their SHA-256.
    func check(feedID: Int64) throws(ClientError) {
        let stable = SafeName.feed(feedID)
        guard file.name == stable else { throw .misnamed(name: file.name, expected: stable) }
        guard file.contentDigest != nil else { throw .unusableEntry(file: file.file, reason: "it has no content_digest") }
        try PublicationNames.checkSnapshot(file.file, feedID: feedID, sha256: file.sha256)
        for delta in file.deltas { try PublicationNames.checkDelta(delta.file, feedID: feedID, sha256: delta.sha256) }
    }
}
