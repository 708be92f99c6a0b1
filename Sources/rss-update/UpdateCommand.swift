import ArgumentParser
import FeedCommandSupport
import FeedPipeline
import FeedStorage
import Foundation

@main
struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rss-update",
        abstract: "Fetch the feeds that are due and update their databases.",
        discussion: """
            Without options: feeds never updated first, then feeds older than --stale-after \
            (stretched by the feed's own ttl/sy:updatePeriod/Cache-Control hints, at most to a \
            day), oldest first, up to --limit. Feeds in backoff, told by Retry-After to wait, \
            or gone (HTTP 410) are skipped until due.

            A second run on the same data directory exits at once (status 75) rather than wait.

            Exit status: 0 every feed read; 1 some feeds failed (recorded, retried later); \
            64 usage error; 70 fatal error (no catalog, database error); 75 another run holds \
            the data directory.
            """)

    @OptionGroup var options: RunOptions

    @Option(help: ArgumentHelp("A feed is due when its last update is this old: 90s, 15m, 1h, 2d.", valueName: "duration"))
    var staleAfter = Seconds(3600)

    @Option(help: "Update at most this many due feeds.")
    var limit: Int?

    @Option(name: .customLong("feed"), help: ArgumentHelp("Update this feed now, whatever its schedule (repeatable).", valueName: "feedid"))
    var feeds: [Int64] = []

    @Flag(help: "Update every feed that is not gone, whatever its schedule.")
    var all = false

    @Flag(help: "Fetch and parse, but write nothing; print what would change.")
    var dryRun = false

    func validate() throws {
        if all && !feeds.isEmpty { throw ValidationError("--all and --feed cannot be combined") }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        MemoryTuning.apply()
        var configuration = options.configuration
        configuration.staleAfter = staleAfter.value
        let catalogPath = configuration.catalogPath
        guard FileManager.default.fileExists(atPath: catalogPath) else {
            reportFailure("rss-update", "no catalog at \(catalogPath): run rss-create first")
            throw ExitCode(ExitStatus.fatal)
        }
        do {
            let lock = try RunLock(directory: configuration.dataDirectory)
            defer { withExtendedLifetime(lock) {} }
            let catalog: Catalog
            do {
                catalog = try Catalog(path: catalogPath)
            } catch {
                throw PipelineError.storage(error)
            }
            let selection: FeedSelection = !feeds.isEmpty ? .feeds(feeds) : (all ? .all : .due(limit: limit))
            let progress = ProgressPrinter()
            let report = try UpdateRun(configuration: configuration, catalog: catalog).run(selection, dryRun: dryRun) {
                progress.update($0, done: $1, total: $2)
            }
            print(RunSummary.render(report, command: "rss-update", dryRun: dryRun), terminator: "")
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        } catch let error as PipelineError {
            reportFailure("rss-update", error.description)
            throw ExitCode(error.exitCode)
        }
    }
}
