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

    enum CodingKeys: String, CodingKey {
        case format, source, generation, files
        case formatVersion = "format_version"
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

        enum CodingKeys: String, CodingKey {
            case kind, version, size, modified
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
