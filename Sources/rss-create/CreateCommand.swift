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

            Settings come from the command line, then FEEDMILL_* environment variables, then \
            the configuration file (--config, $FEEDMILL_CONFIG or ./feedmill.toml; keys as the \
            long options, [create] section for this command only), then the defaults shown; \
            --print-config shows the result.

            \(ExitStatus.helpText)
            """)

    @Option(help: ArgumentHelp(Setting.feedList.summary + Setting.feedList.helpSuffix, valueName: "path-or-url"))
    var opml: String?

    @Flag(help: "Remove feeds that are no longer in the list (and their databases).")
    var prune = false

    @Flag(help: ArgumentHelp(
        "Rebuild a lost catalog from the feed databases beside it.",
        discussion: "When all_feeds.sqlite is missing or empty but feed_<id>.sqlite files remain, list each again under the feedid and URL it is stamped with, then import the feed list as usual."))
    var rebuildCatalog = false

    @OptionGroup var common: CommonOptions
    @OptionGroup var options: PipelineOptions

    func run() throws {
        MemoryTuning.apply()
        var given = options.given
        given[Setting.feedList.key] = opml
        let context = try CommandContext.make(
            command: "rss-create", section: "create", settings: [.feedList] + PipelineOptions.settings, common: common, given: given)
        var configuration = try context.pipelineConfiguration(options)
        let feedList = context.settings.string(.feedList) ?? "feeds.opml"
        let trap = SignalTrap()
        configuration.fetch.stop = trap.stop
        do {
            do {
                try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
            } catch {
                throw PipelineError.dataDirectory(path: configuration.dataDirectory, reason: error.localizedDescription)
            }
            let lock = try RunLock(directory: configuration.dataDirectory)
            defer { withExtendedLifetime(lock) {} }
            var walSetAside: [String]?
            if rebuildCatalog {
                walSetAside = try CatalogRebuild.prepare(configuration, now: configuration.clock())
            } else {
                try CatalogGuard.refuseLostCatalog(configuration)
            }
            let catalog: Catalog
            do {
                catalog = try Catalog(path: configuration.catalogPath)
            } catch {
                throw PipelineError.storage(error)
            }
            if let walSetAside {
                var rebuilt = try CatalogRebuild.adopt(configuration, into: catalog)
                rebuilt.setAside = walSetAside
                context.summary(RunSummary.render(rebuilt))
            }
            let progress = ProgressBar(console: context.console, enabled: !context.quiet)
            let report = try CreateRun(configuration: configuration, catalog: catalog).run(feedList: feedList, prune: prune) {
                FeedLog.log($0, to: context.logger)
                progress.update($0, done: $1, total: $2)
            }
            context.summary(RunSummary.render(report.importResult, source: feedList))
            context.summary(RunSummary.render(report.update, command: "rss-create"))
            context.writeMetrics(report: report.update, exitCode: report.update.exitCode, now: configuration.clock())
            withExtendedLifetime(trap) {}
            if report.update.exitCode != 0 { throw ExitCode(report.update.exitCode) }
        } catch let error as PipelineError {
            context.fail(error.description)
            context.writeMetrics(report: nil, exitCode: error.exitCode, now: configuration.clock())
            throw ExitCode(error.exitCode)
        }
    }
}
