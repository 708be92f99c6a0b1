import Foundation

/// `.feedmill-client.json` in the synced folder: what the client wrote there. It is the
/// client's memory across runs and kills, and its list of the files it may replace or delete:
/// a file it does not list is never touched.
struct ClientState: Codable, Equatable {
    var format = "feedmill-client-state"
    var formatVersion = 1
    /// The base URL last synced from; a different one means generations cannot be compared.
    var source: String?
    /// The last generation applied completely (every file of it in place).
    var generation: Int?
    /// By local name (`feed_3.sqlite`).
    var files: [String: LocalFile] = [:]
    /// Format 2: the pointers last received whole, by name (`feed_3.json`), with their ETag, so
    /// the next sync asks with `If-None-Match` and a 304 costs no body. A cache: losing it costs
    /// one download per pointer, nothing else.
    var pointers: [String: CachedPointer] = [:]
    /// Format 2: when (unix seconds) the local catalog was last found to be the published one;
    /// older than the sync's catalog maximum age, it is downloaded again if it changed.
    var catalogChecked: Int64?
    /// Format 2: followed feeds the local catalog did not list when it was last synced. A feed
    /// in it does not make the catalog be downloaded again (it waits for the maximum age like
    /// any change): one removed from the publication, or never in it, would otherwise cost a
    /// whole catalog on every sync.
    var catalogAbsent: [Int64]?

    enum CodingKeys: String, CodingKey {
        case format, source, generation, files, pointers
        case formatVersion = "format_version"
        case catalogChecked = "catalog_checked_unix_time"
        case catalogAbsent = "catalog_absent_feedids"
    }

    init() {}

    /// Reads states written before format 2 too: the fields it added are optional, so an
    /// older client reads a newer state (ignoring them) and this one reads an older state.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        generation = try container.decodeIfPresent(Int.self, forKey: .generation)
        files = try container.decodeIfPresent([String: LocalFile].self, forKey: .files) ?? [:]
        pointers = try container.decodeIfPresent([String: CachedPointer].self, forKey: .pointers) ?? [:]
        catalogChecked = try container.decodeIfPresent(Int64.self, forKey: .catalogChecked)
        catalogAbsent = try container.decodeIfPresent([Int64].self, forKey: .catalogAbsent)
    }

    /// A pointer's body as received (checked again when used) and the ETag it came with.
    struct CachedPointer: Codable, Equatable {
        var etag: String
        var body: String
    }

    static let fileName = ".feedmill-client.json"

    /// A file the client wrote. `version` is nil while the file is being replaced (claimed, not
    /// yet known to be in place): the next sync checks its content digest before trusting it.
    struct LocalFile: Codable, Equatable {
        var kind: DatabaseKind
        var feedID: Int64?
        var version: Int?
        var schemaVersion: Int?
        var contentDigest: String?
        /// Size and modification time (nanoseconds) when written: a file that no longer has them was changed
        /// by someone else, and its digest is computed again before it is trusted.
        var size: Int?
        var modified: Int64?
        /// The catalog written by the client from the followed feeds' pointers
        /// (``PublicationSync/CatalogSource/followed``), not a published version: `version` is
        /// nil, so a sync that needs the published catalog replaces it.
        var built: Bool?
        /// Format 2: the shard and generation of the pointer entry the file was brought to. A
        /// shard's generations only go up, so a pointer giving an older one of the same shard
        /// is stale or replayed (``ClientError/stalePointer(file:shard:generation:applied:)``).
        var entryShard: String?
        var entryGeneration: Int?

        enum CodingKeys: String, CodingKey {
            case kind, version, size, modified, built
            case entryShard = "entry_shard"
            case entryGeneration = "entry_generation"
            case feedID = "feedid"
            case schemaVersion = "schema_version"
            case contentDigest = "content_digest"
        }
    }

    /// The state in `folder`, or an empty one when there is none yet.
    static func load(from folder: URL) throws(ClientError) -> ClientState {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return ClientState() }
        do {
            let state = try JSONDecoder().decode(ClientState.self, from: Data(contentsOf: url))
            guard state.format == "feedmill-client-state", state.formatVersion == 1 else {
                throw ClientError.stateUnreadable(path: url.path, reason: "it is \(state.format) version \(state.formatVersion)")
            }
            return state
        } catch let error as ClientError {
            throw error
        } catch {
            throw .stateUnreadable(path: url.path, reason: ClientError.describe(decoding: error))
        }
    }

    /// Rewrites the state atomically (temporary, fsync, rename): a kill leaves the old state
    /// or the new one.
    func save(in folder: LocalFolder) throws(ClientError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw .folder(path: folder.path(Self.fileName), reason: "the client state cannot be encoded: \(error)")
        }
        try folder.replace(Self.fileName, with: data)
    }
}
