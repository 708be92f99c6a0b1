import ArgumentParser
import FeedmillClient
import Foundation

/// `rss-pull`: the reference client from a shell. Thin on purpose: options, one call to the
/// library, a summary and an exit status. It links nothing of the server side (no data
/// directory, no settings file), as an app would not.
public struct PullCommand: AsyncParsableCommand {
    public init() {}

    /// `rss-pull` with these arguments, run to the end, for the multi-call `feedmill`. Swift
    /// picks ParsableCommand's synchronous `main(_:)` for `PullCommand.main(arguments)` even
    /// with `await`, and that one refuses an asynchronous command; this is
    /// AsyncParsableCommand's `main(_:)`, named so it cannot be mistaken.
    public static func mainAsync(_ arguments: [String]) async {
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    public static let configuration = CommandConfiguration(
        commandName: "rss-pull",
        abstract: "Sync a publication of rss-publish into a local folder, as an app would.",
        usage: """
            rss-pull <base-url> <folder> [--feed <feedid> ...] [--catalog <followed|published>] [--trust <key> ...] [--timeout <seconds>] [--catalog-max-age <seconds>] [--json]
            rss-pull <base-url> --search <text> [--json]
            """,
        discussion: """
            Reads BASE-URL/manifest.json and brings FOLDER to its generation: the catalog \
            (all_feeds.sqlite) and the feeds followed (every feed, or those given with --feed) \
            as feed_<id>.sqlite, by deltas when they apply and whole files otherwise. In \
            publication format 2 each followed feed's pointer (feed_<id>.json) is revalidated \
            with the ETag kept from the last run (unchanged: a 304, no body). Following some \
            feeds (--feed), all_feeds.sqlite is written by rss-pull from their pointers: only \
            the followed feeds' rows, never the whole catalog (--catalog published downloads the \
            published one instead). Otherwise the catalog is downloaded only when FOLDER has \
            none, when a newly followed feed is not in it, or when it is older than \
            --catalog-max-age (following every feed: whenever it changed); format 1 \
            publications are read too. Every \
            download's SHA-256 and every database's content digest is checked; files are \
            replaced by rename, so a reader never opens a half-written database; a feed that \
            left the publication has its file removed. FOLDER/.feedmill-client.json records what \
            rss-pull wrote: files it did not write are never touched, and a run that was killed \
            is resumed by the next. Prints one line (--json: the whole report).

            Exit status: 0 done (including: already up to date, or a stale copy of an older \
            generation, applied nothing); 1 some files could not be synced (their local copies \
            are kept, the reasons on standard error); 64 usage error; 70 nothing could be done (manifest \
            unreadable or of an unknown format, folder unusable); 75 another rss-pull is writing \
            into the folder; 124 stopped at --deadline (what was finished is kept, what is left \
            is listed on standard error and in the report's "left", and the next run goes on \
            from there); 130 (143) stopped by SIGINT (SIGTERM), the folder as consistent. \
            With --every, a signal ends the schedule with 0.
            """,
        version: "rss-pull \(FeedmillClientVersion.current) (commit \(BuildStamp.commit), built \(BuildStamp.date))")

    @Argument(help: ArgumentHelp("The publication's directory: an http(s) or file URL, or a local path.", valueName: "base-url"))
    var baseURL: String

    @Argument(
        help: ArgumentHelp("The local folder to keep the databases in (created if missing); not with --search.", valueName: "folder"),
        completion: .directory)
    var folder: String?

    // Numbers are read .unconditional(ly), so that `--timeout -3` is refused for what it is
    // rather than as a missing value (FeedCommandSupport's `.number`, which rss-pull does not link).
    @Option(
        name: .customLong("feed"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Follow only this feed (repeatable; default: every published feed).", valueName: "feedid"))
    var feeds: [Int64] = []

    @Option(
        name: .customLong("trust"),
        help: ArgumentHelp(
            "Accept only a publication signed by this key (repeatable, e.g. the old and the new one while the publisher rotates); "
                + "anything else is refused and the files held are kept.",
            valueName: "ed25519:<base64>"))
    var trust: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds each request may take, its whole body included (a server sending a byte at a time cannot stretch it).", valueName: "seconds"))
    var timeout: Double = 60

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Format 2: seconds a local catalog is kept while a newer one is published (when it lists every followed feed).",
            valueName: "seconds"))
    var catalogMaxAge: Double = PublicationSync.defaultCatalogMaxAge

    @Option(
        help: ArgumentHelp(
            "Following some feeds: all_feeds.sqlite written from their pointers (followed), or the published one (published).",
            valueName: "source"))
    var catalog: PublicationSync.CatalogSource = .followed

    @Option(
        help: ArgumentHelp(
            "Search the catalog's title index for titles starting with TEXT (case and accents aside) and print them, "
                + "without syncing or downloading the catalog (a publication of issue 51 or later).",
            valueName: "text"))
    var search: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Stop cleanly after this long (30s, 5m): what was finished is kept, the rest is left for the next run (exit 124).",
            valueName: "duration"))
    var deadline: PullDuration?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Sync now and then every DURATION (after a failure sooner: 30 s, doubling) until SIGINT or SIGTERM; "
                + "prints only syncs that changed something or failed.",
            valueName: "duration"))
    var every: PullDuration?

    @Flag(
        help: ArgumentHelp(
            "Sync, then keep the folder in step through rss-serve's event stream (each new publication's patches applied as they come) "
                + "until SIGINT or SIGTERM; a line per change."))
    var live = false

    @Option(
        help: ArgumentHelp(
            "With --live: rss-serve's URL when it is not base-url (a publication in a bucket or behind a CDN).", valueName: "url"))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "Also sync read/starred marks with rss-serve (--server, or base-url) as the user whose token is in FILE: "
                + "marks set here are sent, the user's other devices' are received.",
            valueName: "file"),
        completion: .file())
    var tokenFile: String?

    @Option(
        name: .customLong("mark"),
        help: ArgumentHelp(
            "Set a mark on this device before syncing (repeatable): FEEDID:read|unread|star|unstar:ITEM-ID (the item's items.id).",
            valueName: "mark"))
    var marks: [String] = []

    @Flag(help: "Print the report as JSON instead of one line.")
    var json = false

    public func validate() throws {
        guard (folder == nil) != (search == nil) else {
            throw ValidationError(search == nil ? "give the folder to sync into" : "--search prints matches and syncs nothing: give no folder")
        }
        guard source != nil else {
            throw ValidationError("base-url must be an http(s) or file URL, or a local path: \(baseURL)")
        }
        if live, every != nil || deadline != nil || json {
            throw ValidationError("--live runs until interrupted: not with --every, --deadline or --json")
        }
        if server != nil, !live, tokenFile == nil {
            throw ValidationError("--server is rss-serve's URL: give it with --live or --token-file")
        }
        if let wrong = marks.first(where: { MarkArgument($0) == nil }) {
            throw ValidationError("--mark takes FEEDID:read|unread|star|unstar:ITEM-ID; got \(wrong)")
        }
        if tokenFile != nil, server == nil, source?.isFileURL == true {
            throw ValidationError("--token-file needs rss-serve's URL: base-url is a local folder, give --server")
        }
        if let server, URL(string: server).flatMap({ ["http", "https"].contains($0.scheme?.lowercased() ?? "") && $0.host != nil ? $0 : nil }) == nil {
            throw ValidationError("--server must be an http(s) URL; got \(server)")
        }
        if live, server == nil, source?.isFileURL == true {
            throw ValidationError("--live needs rss-serve's URL: base-url is a local folder, give --server")
        }
        if let wrong = feeds.first(where: { $0 < 1 }) {
            throw ValidationError("--feed must be a feedid (a whole number of 1 or more); got \(wrong)")
        }
        for key in trust where TrustedKey(key) == nil {
            throw ValidationError("--trust takes a public key as rss-publish --generate-key prints it (ed25519:<base64 of 32 bytes>); got \(key)")
        }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout takes 0 < seconds <= 86400; got \(timeout)") }
        guard catalogMaxAge >= 0, catalogMaxAge <= 31_536_000 else { throw ValidationError("--catalog-max-age takes 0 <= seconds <= 31536000; got \(catalogMaxAge)") }
    }

    /// The base URL: as given when it has a scheme, else a local path.
    private var source: URL? {
        if let url = URL(string: baseURL), let scheme = url.scheme?.lowercased() {
            return ["http", "https", "file"].contains(scheme) && (scheme == "file" || url.host != nil) ? url : nil
        }
        return baseURL.isEmpty ? nil : URL(fileURLWithPath: baseURL, isDirectory: true)
    }

    public func run() async throws {
        guard let source else { throw ExitCode(64) }
        if let search {
            try await searchTitles(search, in: source)
            return
        }
        guard let folder else { throw ExitCode(64) }
        let sync = PublicationSync(
            baseURL: source, folder: URL(fileURLWithPath: folder, isDirectory: true),
            feeds: feeds.isEmpty ? .all : .only(Set(feeds)), transport: DefaultTransport.make(timeout: timeout),
            catalogMaxAge: catalogMaxAge, catalog: catalog, trustedKeys: trust.compactMap(TrustedKey.init))
        // Marks first, whatever the mode: --every and --live take them too.
        let folderURL = URL(fileURLWithPath: folder, isDirectory: true)
        for mark in marks.compactMap(MarkArgument.init) {
            do throws(ClientError) {
                try ReadingState(folder: folderURL).mark(feedID: mark.feedID, id: mark.id, read: mark.read, starred: mark.starred)
            } catch {
                FileHandle.standardError.write(Data("rss-pull: the mark cannot be kept: \(error.description)\n".utf8))
                throw ExitCode(70)
            }
        }
        let trap = InterruptTrap()
        if live {
            await runLive(sync, trap: trap)
            return
        }
        if let every {
            try await runEvery(every, sync: sync, trap: trap)
            return
        }
        var status = await syncOnce(sync, trap: trap, quietWhenUnchanged: false)
        if status == 0 || status == 1, trap.receivedSignal == nil {
            let marked = await syncMarks(folderURL, source: source)
            if status == 0 { status = marked }
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// One sync, its lines printed; returns the exit status (see the discussion).
    private func syncOnce(_ sync: PublicationSync, trap: InterruptTrap, quietWhenUnchanged: Bool) async -> Int32 {
        let bar = !json && ProgressBar.isWanted ? ProgressBar() : nil
        let limit = deadline?.duration
        var progress: (@Sendable (SyncProgress) -> Void)?
        if let bar { progress = { bar.show($0) } }
        let tell = progress
        let running = Task { () -> Result<SyncReport, ClientError> in
            let progress = tell
            do throws(ClientError) {
                return .success(try await sync.run(deadline: limit, progress: progress))
            } catch {
                return .failure(error)
            }
        }
        trap.whenSignalled { running.cancel() }
        let result = await running.value
        bar?.erase()
        let report: SyncReport
        switch result {
        case .success(let value):
            report = value
        case .failure(let error):
            FileHandle.standardError.write(Data("rss-pull: \(error.description)\n".utf8))
            if case .busy = error { return 75 }
            return 70
        }
        for problem in report.problems {
            FileHandle.standardError.write(Data("rss-pull: not synced: \(problem.description)\n".utf8))
        }
        for fallback in report.deltaFallbacks {
            FileHandle.standardError.write(Data("rss-pull: whole file downloaded instead: \(fallback.description)\n".utf8))
        }
        if report.wasInterrupted, !report.left.isEmpty {
            FileHandle.standardError.write(Data("rss-pull: left for the next run: \(report.left.joined(separator: " "))\n".utf8))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write((try? encoder.encode(report)) ?? Data())
            FileHandle.standardOutput.write(Data("\n".utf8))
        } else if !(quietWhenUnchanged && report.outcome == .upToDate) {
            // Written at once, not buffered: --every's lines reach a journal as they happen.
            FileHandle.standardOutput.write(Data("rss-pull: \(report.summary)\n".utf8))
        }
        switch report.outcome {
        case .deadline: return Self.deadlineStatus
        case .cancelled: return 128 + (trap.receivedSignal ?? SIGINT)
        default: return report.problems.isEmpty ? 0 : 1
        }
    }

    /// `--every`: a sync now, then each time the schedule says one is due (the period after
    /// the last success; after a failure 30 s, doubling, up to the period), until SIGINT or
    /// SIGTERM. Prints a line for each sync that changed something or failed (quiet when
    /// nothing changed, for a service's journal).
    private func runEvery(_ period: PullDuration, sync: PublicationSync, trap: InterruptTrap) async throws {
        let scheduler = SyncScheduler(
            policy: SyncPolicy(inUseInterval: period.duration, retryAfterFailure: .milliseconds(Int64(min(30, period.seconds) * 1000))),
            network: FixedNetworkPath(.assumed))
        var history = SyncScheduler.History()
        while trap.receivedSignal == nil {
            switch scheduler.decide(history, activity: .inUse, now: Date()) {
            case .now:
                var status = await syncOnce(sync, trap: trap, quietWhenUnchanged: true)
                if status == 0, trap.receivedSignal == nil { status = await syncMarks(sync.folder, source: sync.baseURL) }
                history = history.after(succeeded: status == 0, at: Date())
            case .at(let due):
                await trap.sleep(seconds: due.timeIntervalSinceNow)
            case .waitForNetwork:
                await trap.sleep(seconds: 5)
            }
        }
    }

    /// `--token-file`: the marks, after the files (so that retention's removals are known).
    /// Returns 0, or 1 when they could not be synced (they are kept for the next run).
    private func syncMarks(_ folder: URL, source: URL) async -> Int32 {
        guard let tokenFile else { return 0 }
        let token: String
        do {
            token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            FileHandle.standardError.write(Data("rss-pull: the token cannot be read from \(tokenFile): \(error.localizedDescription)\n".utf8))
            return 1
        }
        guard !token.isEmpty, !token.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            FileHandle.standardError.write(Data("rss-pull: \(tokenFile) holds no token (one line, no spaces)\n".utf8))
            return 1
        }
        let stateServer = server.flatMap(URL.init(string:)) ?? source
        do throws(ClientError) {
            let report = try await ReadingState(folder: folder).sync(server: stateServer, token: token, transport: DefaultTransport.make(timeout: timeout))
            if !json { FileHandle.standardOutput.write(Data("rss-pull: \(report.summary)\n".utf8)) }
            return 0
        } catch {
            FileHandle.standardError.write(Data("rss-pull: marks not synced (kept for the next run): \(error.description)\n".utf8))
            return 1
        }
    }

    /// `--live`: a line per change until SIGINT or SIGTERM (then 0).
    private func runLive(_ sync: PublicationSync, trap: InterruptTrap) async {
        let live = PublicationLive(sync: sync, serverURL: server.flatMap(URL.init(string:)))
        let task = Task {
            for await update in live.updates() { LiveLines.write(update) }
        }
        trap.whenSignalled { task.cancel() }
        await task.value
    }

    /// The exit status of a sync stopped by `--deadline` (as `timeout(1)`'s).
    static let deadlineStatus: Int32 = 124

    /// `--search`: the matches, one `feedid<TAB>title` line each (`--json`: an array); 70 when
    /// the index cannot be read.
    private func searchTitles(_ text: String, in source: URL) async throws {
        let catalog = PublicationCatalog(baseURL: source, transport: DefaultTransport.make(timeout: timeout), trustedKeys: trust.compactMap(TrustedKey.init))
        let matches: [CatalogMatch]
        do {
            matches = try await catalog.search(text, in: try await catalog.index())
        } catch {
            FileHandle.standardError.write(Data("rss-pull: \(error.description)\n".utf8))
            throw ExitCode(70)
        }
        if json {
            let rows = matches.map { ["feedid": NSNumber(value: $0.feedID), "title": $0.title] as [String: Any] }
            let data = try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for match in matches { print("\(match.feedID)\t\(match.title)") }
        }
    }
}

extension PublicationSync.CatalogSource: ExpressibleByArgument {}
