import ArgumentParser
import FeedBasics
import FeedCommandSupport
import FeedPipeline
import FeedUpdateCommandSupport

public struct CreateCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "rss-create",
        abstract: "Import a feed list (OPML) into the catalog, then fetch every feed that has no title yet.",
        usage: """
            rss-create [--opml <path-or-url>] [--base <url>] [--data-dir <dir>] [--prune] [--shard <K/N>]
            rss-create --rebuild-catalog [--opml <path-or-url>] [--data-dir <dir>]
            """,
        discussion: """
            Outlines may nest: their titles become the feed's category path. Relative xmlUrl \
            values are resolved against --base, else against the OPML's URL when it was \
            fetched; in a local file without --base they are refused (a file:// feed would \
            fail forever). Refused outlines are named on standard error and make the exit \
            status 1; the others are imported. The list is read before the catalog is \
            touched: an unreadable list changes nothing. A URL already in the catalog \
            keeps its feedid; new URLs get new feedids; duplicates are imported once and \
            reported; feeds no longer listed are reported and kept unless --prune. Running it \
            twice changes nothing the second time. With --shard K/N the whole list is \
            imported (every shard's catalog is the same) and only the feeds of shard K's \
            hosts are fetched and get databases (docs/sharding.md).

            Settings come from the command line, then FEEDMILL_* environment variables, then \
            the configuration file (--config, $FEEDMILL_CONFIG, else the first of \
            ./feedmill.toml, ~/.config/feedmill/feedmill.toml and /etc/feedmill/feedmill.toml; \
            keys as the long options, [create] section for this command only), then the \
            defaults shown; --print-config shows the result.

            \(ExitStatus.helpText)
            """,
        version: FeedmillVersion.line("rss-create", commit: BuildStamp.commit, built: BuildStamp.date))

    @Option(help: Settings.feedList.help, completion: .file(extensions: ["opml", "xml"]))
    var opml: String?

    @Option(help: ArgumentHelp("Resolve relative xmlUrl values in the feed list against this http(s) URL.", valueName: "url"))
    var base: String?

    @Flag(help: "Remove feeds that are no longer in the list (and their databases).")
    var prune = false

    @Flag(help: ArgumentHelp(
        "Rebuild a lost catalog from the feed databases beside it.",
        discussion: "When all_feeds.sqlite is missing or empty but feed_<id>.sqlite files remain, list each again under the feedid and URL it is stamped with, then import the feed list as usual."))
    var rebuildCatalog = false

    @Option(help: Settings.shard.help, transform: Shard.argument)
    var shard: Shard?

    @OptionGroup var common: CommonOptions
    @OptionGroup var options: PipelineOptions

    public func validate() throws {
        if let base, !(base.hasPrefix("http://") || base.hasPrefix("https://")) {
            throw ValidationError("--base must be an absolute http or https URL")
        }
    }

    public func run() throws {
        MemoryTuning.apply()
        var given = options.given
        given.add(Settings.feedList, opml)
        given.add(Settings.shard, shard)
        let context = try CommandContext.make(.create, common: common, given: given)
        var configuration = try context.pipelineConfiguration(options)
        let feedList = context.settings[Settings.feedList]
        let trap = SignalTrap()
        configuration.fetch.stop = trap.stop
        try CommandRunner.run(context, now: configuration.clock) { () throws(PipelineError) in
            let list = try FeedList.load(feedList, base: base, configuration: configuration.fetch)
            for rejection in list.rejected { context.fail("not imported: \(rejection)") }
            let opened = try CatalogAccess.openForCreate(configuration, rebuild: rebuildCatalog)
            defer { withExtendedLifetime((opened.lock, trap)) {} }
            if let walSetAside = opened.setAside {
                var rebuilt = try CatalogRebuild.adopt(configuration, into: opened.catalog)
                rebuilt.setAside = walSetAside
                context.summary(RunSummary.render(rebuilt))
            }
            let progress = ProgressBar(console: context.console, enabled: !context.quiet)
            let rejected = list.rejected
            // Handed over: the outlines are let go once imported, before the fetching.
            let report = try CreateRun(configuration: configuration, catalog: opened.catalog).run(feedList: consume list, prune: prune) {
                FeedLog.log($0, to: context.logger)
                progress.update($0, done: $1, total: $2)
            }
            let imported = report.importResult
            let eventful = !report.update.nothingHappened || !imported.added.isEmpty || !imported.missing.isEmpty || imported.pruned
            context.summary(RunSummary.record(imported, source: feedList, update: report.update), eventful: eventful)
            context.noteOtherShardsDatabases(report.update)
            let exitCode = rejected.isEmpty ? report.update.exitCode : max(report.update.exitCode, ExitStatus.someFeedsFailed)
            let feedStates = context.feedStates(opened.catalog, configuration: configuration)
            return CommandResult(report: report.update, feedStates: feedStates, exitCode: exitCode)
        }
    }
}
