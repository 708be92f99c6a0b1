import Foundation

/// A live `patch` applied to the followed feed's file under the folder's lock, by the rules of
/// a delta (docs/client-contract.md, "Live updates"): only to the version it starts from, on a
/// copy, in one transaction, the copy's content digest equal to the event's before it is
/// renamed over the file. Anything else is an error, and the caller syncs the files instead.
extension SyncSession {
    func applyLivePatch(_ event: LiveEvent) throws(ClientError) -> String {
        defer { folder.unlock() }
        guard let feedID = event.feedID, let file = event.file, let sha256 = event.sha256, let toVersion = event.toVersion,
            let schemaVersion = event.schemaVersion, let size = event.size, let from = event.fromVersion
        else { throw .unusableDelta(file: "live patch", reason: "it does not name its feed's entry") }
        let name = SafeName.feed(feedID)
        func refuse(_ reason: String) -> ClientError { .unusableDelta(file: "live patch for \(name)", reason: reason) }
        guard configuration.feeds.includes(feedID) else { throw refuse("feed \(feedID) is not followed") }
        guard configuration.trustedKeys.isEmpty else {
            throw refuse("a patch is not signed, and this client trusts only signed pointers")
        }
        try PublicationNames.checkSnapshot(file, feedID: feedID, sha256: sha256)
        guard let digest = event.contentDigest else { throw refuse("it has no content_digest to check the result against") }
        guard let local = state.files[name], local.version == from, folder.exists(name) else {
            throw refuse("it starts from version \(from); the folder holds \(state.files[name]?.version.map(String.init) ?? "none")")
        }
        guard local.schemaVersion == schemaVersion else {
            throw refuse("it is for schema version \(schemaVersion); the local file has \(local.schemaVersion.map(String.init) ?? "none")")
        }
        let published = ManifestFile(
            feedID: feedID, name: name, file: file, version: toVersion, sha256: sha256, size: size, schemaVersion: schemaVersion, contentDigest: digest)
        let temporary = try folder.copyToTemporary(name)
        do throws(ClientError) {
            try Self.apply(event.operations, to: folder.path(temporary))
            let shard = local.entryShard, applied = local.entryGeneration
            try install(temporary, as: published, kind: .feed)
            // The pointer entry's generation is the shard's, not the root's an event carries:
            // the one recorded stays until the next file sync reads the pointer.
            state.files[name]?.entryShard = shard
            state.files[name]?.entryGeneration = applied
            try state.save(in: folder)
        } catch {
            folder.discard(temporary)
            throw error
        }
        return name
    }

    /// The operations as SQL, in one transaction: removes, then adds (each add replaces the
    /// whole row, as the contract's `add` does).
    static func apply(_ operations: [PatchOperation], to path: String) throws(ClientError) {
        let connection = try SQLiteConnection(path: path, readOnly: false)
        defer { connection.close() }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(ClientError) {
            let delete = try connection.prepare("DELETE FROM items WHERE id = ?")
            for case .remove(let id) in operations { try delete.run([.text(Array(id.utf8))]) }
            for case .add(let id, let row) in operations {
                let columns = row.keys.sorted()
                let quoted = (["id"] + columns).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
                let insert = try connection.prepare(
                    "INSERT OR REPLACE INTO items (\(quoted.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: quoted.count).joined(separator: ", ")))")
                try insert.run([.text(Array(id.utf8))] + columns.map { row[$0]?.sqlite ?? .null })
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}

extension ManifestFile {
    init(feedID: Int64?, name: String, file: String, version: Int, sha256: String, size: Int, schemaVersion: Int, contentDigest: String?) {
        self.feedID = feedID
        self.name = name
        self.file = file
        self.version = version
        self.sha256 = sha256
        self.size = size
        self.schemaVersion = schemaVersion
        self.contentDigest = contentDigest
        deltas = []
        lastUpdate = nil
    }
}
