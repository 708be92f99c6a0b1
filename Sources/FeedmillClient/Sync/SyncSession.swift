import Foundation

/// One sync, top to bottom: lock the folder → clear leftovers → read the manifest → refuse what
/// it cannot read or a stale generation → the catalog → each followed feed → remove the files of
/// feeds that left → record the generation when every file of it is in place.
///
/// Not `Sendable`: created and used by one ``PublicationSync/run()`` call, in one task.
final class SyncSession {
    let configuration: PublicationSync
    let folder: LocalFolder
    var state: ClientState
    /// The state as this sync found it: saved again at the end only if it changed.
    private let initialState: ClientState
    var report = SyncReport()

    init(_ configuration: PublicationSync) throws(ClientError) {
        self.configuration = configuration
        folder = try LocalFolder(configuration.folder)
        state = try ClientState.load(from: folder.url)
        initialState = state
    }

    func run() async throws(ClientError) -> SyncReport {
        report.temporariesRemoved = folder.removeLeftoverTemporaries()
        let manifestURL = url(of: "manifest.json")
        let manifest = try PublicationManifest.decode(try await download(manifestURL), from: manifestURL)
        try manifest.checkFormat(url: manifestURL)
        report.generation = manifest.generation

        let source = configuration.baseURL.absoluteString
        if state.source != source {
            // Another publication's generations say nothing about this one.
            state.source = source
            state.generation = nil
        }
        report.previousGeneration = state.generation
        if let applied = state.generation, manifest.generation < applied {
            report.outcome = .staleGeneration
            return report
        }

        var names = Set<String>()
        if let catalog = manifest.catalog {
            names.insert(catalog.name)
            await sync(catalog, kind: .catalog)
        }
        let followed = manifest.feeds.filter { $0.feedID.map(configuration.feeds.includes) ?? false }
        // A followed feed still published keeps the file under its own name, even when its
        // entry is refused (named otherwise): removal is for feeds that left.
        var kept = Set(followed.compactMap { $0.feedID.map(SafeName.feed) })
        for feed in followed {
            guard names.insert(feed.name).inserted else {
                report.problems.append(SyncProblem(file: feed.name, error: .unsafeName(feed.name + " (named twice in the manifest)")))
                continue
            }
            await sync(feed, kind: .feed)
        }
        kept.formUnion(names)
        removeFeeds(keeping: kept)
        report.notPublished = notPublished(manifest, catalog: manifest.catalog?.name)

        let changed = !report.fullDownloads.isEmpty || !report.deltaDownloads.isEmpty || !report.removed.isEmpty
        if report.problems.isEmpty {
            state.generation = manifest.generation
        }
        if state != initialState || !folder.exists(ClientState.fileName) { try state.save(in: folder) }
        if !changed, report.problems.isEmpty, report.previousGeneration == manifest.generation {
            report.outcome = .upToDate
        }
        return report
    }

    /// `name` resolved against the publication's base URL (names are checked plain first).
    func url(of name: String) -> URL {
        configuration.baseURL.appendingPathComponent(name)
    }

    /// The body of `url`, counted in the report; anything but a 200 is an error.
    func download(_ url: URL) async throws(ClientError) -> Data {
        let response: (status: Int, body: Data)
        do {
            response = try await configuration.transport.fetch(url)
        } catch let error as ClientError {
            throw error
        } catch {
            throw .transport(url: url, reason: error.localizedDescription)
        }
        report.bytesDownloaded += response.body.count
        guard response.status == 200 else { throw .httpStatus(url: url, status: response.status) }
        return response.body
    }

    /// Deletes the files of feeds the client holds that are no longer published or followed:
    /// only files listed in its state, which it wrote itself.
    private func removeFeeds(keeping names: Set<String>) {
        for (name, file) in state.files.sorted(by: { $0.key < $1.key }) where file.kind == .feed && !names.contains(name) {
            do throws(ClientError) {
                try folder.remove(name)
                state.files[name] = nil
                try state.save(in: folder)
                report.removed.append(name)
            } catch {
                report.problems.append(SyncProblem(file: name, error: error))
            }
        }
    }

    /// Followed feeds the local catalog lists that the manifest does not publish.
    private func notPublished(_ manifest: PublicationManifest, catalog: String?) -> [Int64] {
        guard let catalog, state.files[catalog]?.version != nil, folder.exists(catalog) else { return [] }
        let published = Set(manifest.feeds.compactMap(\.feedID))
        do throws(ClientError) {
            let connection = try SQLiteConnection(path: folder.path(catalog), readOnly: true)
            defer { connection.close() }
            let statement = try connection.prepare("SELECT feedid FROM feeds ORDER BY feedid")
            var missing: [Int64] = []
            while try statement.step() {
                guard let id = statement.value(at: 0).integer, configuration.feeds.includes(id), !published.contains(id) else { continue }
                missing.append(id)
            }
            return missing
        } catch {
            report.problems.append(SyncProblem(file: catalog, error: error))
            return []
        }
    }
}
