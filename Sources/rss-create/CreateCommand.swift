import ArgumentParser
import FeedCommandSupport
import FeedPipeline
import FeedStorage
import Foundation

@main
struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rss-create",
        abstract: "Import a feed list (OPML) into the catalog, then fetch every feed that has no title yet.",
        discussion: """
            Outlines may nest: their titles become the feed's category path. Relative xmlUrl \
            values are resolved against where the OPML came from. A URL already in the catalog \
            keeps its feedid; new URLs get new feedids; duplicates are imported once and \
            reported; feeds no longer listed are reported and kept unless --prune. Running it \
            twice changes nothing the second time.

            Exit status: 0 done; 1 some feeds failed their first fetch (recorded, retried by \
            rss-update); 64 usage error; 70 fatal error (unreadable list, database error); 75 \
            another run holds the data directory.
            """)

    @Option(help: ArgumentHelp("The feed list: an OPML file path or http(s) URL.", valueName: "path-or-url"))
    var opml: String = "feeds.opml"

    @Flag(help: "Remove feeds that are no longer in the list (and their databases).")
    var prune = false

    @OptionGroup var options: RunOptions

    func run() throws {
        MemoryTuning.apply()
        let configuration = options.configuration
        do {
            do {
                try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
            } catch {
                throw PipelineError.dataDirectory(path: configuration.dataDirectory, reason: error.localizedDescription)
            }
            let lock = try RunLock(directory: configuration.dataDirectory)
            defer { withExtendedLifetime(lock) {} }
            let catalog: Catalog
            do {
                catalog = try Catalog(path: configuration.catalogPath)
            } catch {
                throw PipelineError.storage(error)
            }
            let progress = ProgressPrinter()
            let report = try CreateRun(configuration: configuration, catalog: catalog).run(feedList: opml, prune: prune) {
                progress.update($0, done: $1, total: $2)
            }
            if prune {
                for feed in report.importResult.missing {
                    try? FileManager.default.removeItem(atPath: configuration.feedDatabasePath(feed.feedID))
                }
            }
            print(RunSummary.render(report.importResult, source: opml), terminator: "")
            print(RunSummary.render(report.update, command: "rss-create"), terminator: "")
            if report.update.exitCode != 0 { throw ExitCode(report.update.exitCode) }
        } catch let error as PipelineError {
            reportFailure("rss-create", error.description)
            throw ExitCode(error.exitCode)
        }
    }
}
