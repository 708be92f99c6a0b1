import Foundation

/// One sync, top to bottom: lock the folder → clear leftovers → read the manifest → refuse what
/// it cannot read or a stale generation → format 2 (root, catalog when needed, each followed
/// feed's pointer) or format 1 (the catalog, each followed feed) → remove the files of feeds
/// that left → record the generation when every file of it is in place.
///
/// Not `Sendable`: created and used by one ``PublicationSync/run()`` call, in one task.
final class SyncSession {
    let configuration: PublicationSync
    let folder: LocalFolder
    var state: ClientState
    /// The state as this sync found it: saved again at the end only if it changed.
    private let initialState: ClientState
    var report = SyncReport()
    /// When the sync's deadline is, if it has one: a cancellation at or after it is the
    /// deadline's, any other the caller's.
    let deadline: ContinuousClock.Instant?
    /// Told of each step, for an app's progress bar.
    let progress: (@Sendable (SyncProgress) -> Void)?
    /// The followed feeds (and catalog) this sync will bring up to date: the progress's total.
    var filesToSync = 0
    var filesDone = 0

    init(_ configuration: PublicationSync, deadline: ContinuousClock.Instant? = nil, progress: (@Sendable (SyncProgress) -> Void)? = nil) throws(ClientError) {
        self.configuration = configuration
        self.deadline = deadline
        self.progress = progress
        folder = try LocalFolder(configuration.folder)
        state = try ClientState.load(from: folder.url)
        initialState = state
    }

    func run() async throws(ClientError) -> SyncReport {
        defer { folder.unlock() }
        report.temporariesRemoved = folder.removeLeftoverTemporaries()
        let manifestURL = url(of: "manifest.json")
        let downloaded: Data
        do throws(ClientError) {
            guard !shouldStop else { throw .cancelled(url: manifestURL) }
            downloaded = try await download(manifestURL, maxBytes: PublicationSync.manifestByteLimit)
        } catch {
            guard shouldStop else { throw error }
            report.left = ["manifest.json"]
            return report
        }
        report.bytesInManifest = downloaded.count
        let data = try verified(downloaded, file: "manifest.json")
        let formatVersion = try ManifestHeader.version(of: data, from: manifestURL)
        report.formatVersion = formatVersion
        let root = formatVersion == RootManifest.formatVersion ? try RootManifest.decode(data, from: manifestURL) : nil
        let manifest = root == nil ? try PublicationManifest.decode(data, from: manifestURL) : nil
        let generation = root?.generation ?? manifest?.generation ?? 0
        report.generation = generation

        let source = configuration.baseURL.absoluteString
        if state.source != source {
            // Another publication's generations, pointers and catalog say nothing about this one.
            state.source = source
            state.generation = nil
            state.pointers = [:]
            state.catalogChecked = nil
            state.catalogAbsent = nil
        }
        report.previousGeneration = state.generation
        if let applied = state.generation, generation < applied {
            report.outcome = .staleGeneration
            return report
        }

        if let root {
            await syncFormat2(root)
        } else if let manifest {
            await syncFormat1(manifest)
        }

        if shouldStop { settleInterruption() }
        let changed = !report.fullDownloads.isEmpty || !report.deltaDownloads.isEmpty || !report.removed.isEmpty
            || report.catalog?.action == .built
        if report.problems.isEmpty, !report.wasInterrupted {
            state.generation = generation
        }
        if state != initialState || !folder.exists(ClientState.fileName) { try state.save(in: folder) }
        if !changed, report.problems.isEmpty, !report.wasInterrupted, report.previousGeneration == generation {
            report.outcome = .upToDate
        }
        return report
    }

    /// Whether the sync is to stop now: its task was cancelled, by the caller or at the
    /// deadline. Sets the report's outcome the first time it is seen.
    var shouldStop: Bool {
        if report.wasInterrupted { return true }
        guard Task.isCancelled else { return false }
        report.outcome = deadline.map { ContinuousClock.now >= $0 } == true ? .deadline : .cancelled
        return true
    }

    /// A sync that stopped: requests cut by the stop are not problems but what is left.
    private func settleInterruption() {
        let cut = report.problems.filter {
            switch $0.error {
            case .cancelled: true
            default: false
            }
        }
        report.problems.removeAll { problem in cut.contains { $0.file == problem.file } }
        report.left = Array(Set(report.left + cut.map(\.file))).sorted()
    }

    /// Tells the progress handler where the sync is.
    func tellProgress(file: String? = nil) {
        guard let progress else { return }
        progress(SyncProgress(filesDone: filesDone, filesTotal: filesToSync, bytesReceived: report.bytesDownloaded, requests: report.requests, file: file))
    }

    /// A file brought up to date, refused or skipped: one step of the progress.
    func fileDone(_ name: String) {
        filesDone += 1
        tellProgress(file: name)
    }

    /// A root's or pointer's bytes without their signature, once it is found good; the bytes
    /// as they are when the client pins no key.
    func verified(_ document: Data, file: String) throws(ClientError) -> Data {
        guard !configuration.trustedKeys.isEmpty else { return document }
        return try SignatureCheck.verified(document, keys: configuration.trustedKeys, file: file)
    }

    /// `name` resolved against the publication's base URL (names are checked plain first).
    func url(of name: String) -> URL {
        configuration.baseURL.appendingPathComponent(name)
    }

    /// One request, counted in the report (the request, its body's bytes, a 304).
    func fetch(_ request: TransportRequest) async throws(ClientError) -> TransportResponse {
        let result = await Self.perform(request, with: configuration.transport)
        count(result)
        return try result.get()
    }

    /// A request made by `transport`, its errors as the client's (callable from child tasks).
    /// A body over the request's cap is refused whatever the transport did with the cap.
    static func perform(_ request: TransportRequest, with transport: any ClientTransport) async -> Result<TransportResponse, ClientError> {
        do {
            let response = try await transport.fetch(request)
            if let limit = request.maxBytes, response.body.count > limit { return .failure(.tooLarge(url: request.url, limit: limit)) }
            return .success(response)
        } catch let error as ClientError {
            return .failure(error)
        } catch {
            return .failure(.transport(url: request.url, reason: error.localizedDescription))
        }
    }

    /// Counts a request made in the report: the request, its body's bytes, a 304.
    func count(_ result: Result<TransportResponse, ClientError>) {
        report.requests += 1
        defer { tellProgress() }
        guard case .success(let response) = result else { return }
        report.bytesDownloaded += response.body.count
        if response.status == 304 { report.notModified += 1 }
    }

    /// The body of `url`, at most `maxBytes` of it; anything but a 200 is an error.
    func download(_ url: URL, maxBytes: Int) async throws(ClientError) -> Data {
        let response = try await fetch(TransportRequest(url: url, maxBytes: maxBytes))
        guard response.status == 200 else { throw .httpStatus(url: url, status: response.status) }
        return response.body
    }

    /// Deletes the files of feeds the client holds that are no longer published or followed:
    /// only files listed in its state, which it wrote itself.
    func removeFeeds(keeping names: Set<String>) {
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

    /// The feedids the local catalog lists, when the client holds one it wrote completely;
    /// nil when it has none (or cannot read it: a problem in the report).
    func localCatalogFeedIDs() -> [Int64]? {
        let catalog = SafeName.catalog
        guard state.files[catalog]?.version != nil, folder.exists(catalog) else { return nil }
        do throws(ClientError) {
            let connection = try SQLiteConnection(path: folder.path(catalog), readOnly: true)
            defer { connection.close() }
            let statement = try connection.prepare("SELECT feedid FROM feeds ORDER BY feedid")
            var ids: [Int64] = []
            while try statement.step() {
                if let id = statement.value(at: 0).integer { ids.append(id) }
            }
            return ids
        } catch {
            report.problems.append(SyncProblem(file: catalog, error: error))
            return nil
        }
    }
}
