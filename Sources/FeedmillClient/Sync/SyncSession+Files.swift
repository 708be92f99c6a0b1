import Foundation

/// One database brought to its published version: nothing when it is there, a delta when one
/// applies to the version held, the whole file otherwise. Nothing replaces the local file
/// until it passed every check.
extension SyncSession {
    func sync(_ published: ManifestFile, kind: DatabaseKind) async {
        do throws(ClientError) {
            try await bringUpToDate(published, kind: kind)
        } catch {
            report.problems.append(SyncProblem(file: SafeName.isPlain(published.name) ? published.name : published.file, error: error))
        }
    }

    private func bringUpToDate(_ published: ManifestFile, kind: DatabaseKind) async throws(ClientError) {
        let name = published.name
        guard SafeName.isPlain(name), name != ClientState.fileName else { throw .unsafeName(name) }
        guard SafeName.isPlain(published.file) else { throw .unsafeName(published.file) }
        // The name is the one an app opens for this database: bound to the feedid, so that no
        // manifest can make the client put one feed's items where the app reads another's.
        let expected = kind == .catalog ? SafeName.catalog : published.feedID.map(SafeName.feed) ?? ""
        guard name == expected else { throw .misnamed(name: name, expected: expected) }
        let known = kind == .catalog ? PublicationSync.knownCatalogSchemaVersions : PublicationSync.knownFeedSchemaVersions
        guard known.contains(published.schemaVersion) else {
            throw .unsupportedSchema(file: published.file, schemaVersion: published.schemaVersion, known: known)
        }
        guard let local = state.files[name] else {
            // Never written by this client: a file there is someone else's.
            if folder.exists(name) { throw .foreignFile(path: folder.path(name)) }
            try await downloadWhole(published, kind: kind)
            return
        }
        // Schema versions only go up (a catalog the client wrote itself records its own).
        if let held = local.schemaVersion, local.built != true, published.schemaVersion < held {
            throw .schemaWentBack(file: published.file, schemaVersion: published.schemaVersion, held: held)
        }
        if try holds(published, local: local) { return }
        if let delta = applicableDelta(published, local: local) {
            do throws(ClientError) {
                try await applyDelta(delta, to: published, local: local)
                return
            } catch {
                report.deltaFallbacks.append(SyncProblem(file: name, error: error))
            }
        }
        try await downloadWhole(published, kind: kind)
    }

    /// Whether the local file already is the published version. A file changed since the
    /// client wrote it (size or time differ) is trusted only if its content digest still is
    /// the one recorded; a file claimed but never confirmed (a sync killed while replacing it)
    /// only if its digest is the manifest's. A version number alone is not trusted: when the
    /// entry states a content digest other than the one recorded for the file (what a forged
    /// or broken server once gave the client under this version), the file is synced again.
    private func holds(_ published: ManifestFile, local: ClientState.LocalFile) throws(ClientError) -> Bool {
        let name = published.name
        guard let stamp = folder.stamp(name) else { return false }
        if let version = local.version {
            guard version == published.version, local.schemaVersion == published.schemaVersion else { return false }
            if let stated = published.contentDigest, let recorded = local.contentDigest, stated != recorded { return false }
            if let size = local.size, let modified = local.modified, size == stamp.size, modified == stamp.modified { return true }
            guard let recorded = local.contentDigest, (try? ContentDigest.of(folder.path(name), kind: local.kind)) == recorded else { return false }
            try record(published, kind: local.kind, digest: recorded)
            return true
        }
        guard let expected = published.contentDigest, (try? ContentDigest.of(folder.path(name), kind: local.kind)) == expected else { return false }
        try record(published, kind: local.kind, digest: expected)
        return true
    }

    /// The delta from the version held, when the contract lets the client use one: same schema
    /// version, a content digest to check the result against, and the local file present.
    private func applicableDelta(_ published: ManifestFile, local: ClientState.LocalFile) -> ManifestDelta? {
        guard let version = local.version, local.schemaVersion == published.schemaVersion, published.contentDigest != nil,
            published.feedID != nil, folder.exists(published.name)
        else { return nil }
        return published.deltas.first { $0.fromVersion == version }
    }

    /// Downloads the delta, applies it to a copy of the local file in one transaction, checks
    /// the copy's content digest, and renames the copy over the file.
    private func applyDelta(_ delta: ManifestDelta, to published: ManifestFile, local: ClientState.LocalFile) async throws(ClientError) {
        guard SafeName.isPlain(delta.file) else { throw .unsafeName(delta.file) }
        let data = try await download(url(of: delta.file), maxBytes: max(0, delta.size))
        report.bytesInDeltas += data.count
        try verify(data, file: delta.file, size: delta.size, sha256: delta.sha256)
        let document = try DeltaDocument.decode(data, file: delta.file)
        try document.check(
            file: delta.file, feedID: published.feedID ?? -1, from: delta.fromVersion, to: published.version,
            schemaVersion: local.schemaVersion ?? 0, contentDigest: published.contentDigest)
        let temporary = try folder.copyToTemporary(published.name)
        do throws(ClientError) {
            try document.apply(to: folder.path(temporary))
            try install(temporary, as: published, kind: .feed)
        } catch {
            folder.discard(temporary)
            throw error
        }
        report.deltaDownloads.append(published.name)
    }

    /// Downloads the versioned file whole, checks its size, SHA-256 and content digest, and
    /// renames it into place.
    private func downloadWhole(_ published: ManifestFile, kind: DatabaseKind) async throws(ClientError) {
        let data = try await download(url(of: published.file), maxBytes: max(0, published.size))
        report.bytesInFullFiles += data.count
        try verify(data, file: published.file, size: published.size, sha256: published.sha256)
        let temporary = try folder.writeTemporary(data, for: published.name)
        do throws(ClientError) {
            try install(temporary, as: published, kind: kind)
        } catch {
            folder.discard(temporary)
            throw error
        }
        report.fullDownloads.append(published.name)
    }

    /// Checks the temporary's content digest against the manifest's, claims the name in the
    /// state (so a kill right after the rename leaves a file the client knows is its own),
    /// renames, and records the new version.
    func install(_ temporary: String, as published: ManifestFile, kind: DatabaseKind) throws(ClientError) {
        let digest = try ContentDigest.of(folder.path(temporary), kind: kind)
        if let expected = published.contentDigest, digest != expected {
            throw .contentDigestMismatch(file: published.file, expected: expected, found: digest)
        }
        var claimed = state.files[published.name] ?? ClientState.LocalFile(kind: kind, feedID: published.feedID)
        claimed.version = nil
        claimed.size = nil
        claimed.modified = nil
        state.files[published.name] = claimed
        try state.save(in: folder)
        try folder.install(temporary, as: published.name)
        try record(published, kind: kind, digest: digest)
    }

    /// Records that the local file is `published`'s version, with its digest and stamp.
    func record(_ published: ManifestFile, kind: DatabaseKind, digest: String) throws(ClientError) {
        let stamp = folder.stamp(published.name)
        state.files[published.name] = ClientState.LocalFile(
            kind: kind, feedID: published.feedID, version: published.version, schemaVersion: published.schemaVersion,
            contentDigest: digest, size: stamp?.size, modified: stamp?.modified)
        try state.save(in: folder)
    }

    /// The bytes received are the published file: the size first (a download cut short says
    /// so plainly), then the SHA-256.
    private func verify(_ data: Data, file: String, size: Int, sha256: String) throws(ClientError) {
        guard data.count == size else { throw .sizeMismatch(file: file, expected: size, received: data.count) }
        let received = SHA256Hasher.hexDigest(data)
        guard received == sha256.lowercased() else { throw .sha256Mismatch(file: file, expected: sha256, received: received) }
    }
}
