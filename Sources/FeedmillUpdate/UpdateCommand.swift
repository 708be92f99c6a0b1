import ArgumentParser
import FeedBasics
import FeedCommandSupport
import FeedPipeline
import FeedUpdateCommandSupport

public struct UpdateCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "rss-update",
        abstract: "Fetch the feeds that are due and update their databases.",
        usage: """
            rss-update [--data-dir <dir>] [--limit <n>] [--stale-after <duration>] [--shard <K/N>] [--dry-run]
            rss-update [--data-dir <dir>] (--feed <feedid> ... | --all) [--dry-run]
            """,
        discussion: """
            Without options: feeds never updated first, then feeds older than --stale-after \
            (stretched by the feed's own ttl/sy:updatePeriod/Cache-Control hints, at most to a \
            day), oldest first, up to --limit. Feeds in backoff, told by Retry-After to wait, \
            or gone (HTTP 410) are skipped until due.

            Settings come from the command line, then FEEDMILL_* environment variables, then \
            the configuration file (--config, $FEEDMILL_CONFIG, else the first of \
            ./feedmill.toml, ~/.config/feedmill/feedmill.toml and /etc/feedmill/feedmill.toml; \
            keys as the long options, [update] section for this command only), then the \
            defaults shown; --print-config shows the result.

            On a terminal a progress bar is shown, and a run with nothing due says so (how many \
            feeds, when the next is due); otherwise (cron, systemd) only the summary and errors \
            are printed, and a run in which nothing happened (no new or changed items, no \
            failures) prints nothing. Ctrl-C or SIGTERM stops within seconds: no new transfer \
            starts, transfers in flight are aborted, each feed's write commits or rolls back.

            A second run on the same data directory exits at once (status 75) rather than wait.

            With --shard K/N only the feeds of shard K's hosts are fetched (every feed of one \
            host is in one shard); --feed of another shard's feed is refused, naming its shard. \
            A feed new to the shard is fetched in full into a new database; databases of feeds \
            other shards own now are left in place (docs/sharding.md).

            \(ExitStatus.helpText)
            """,
        version: FeedmillVersion.line("rss-update", commit: BuildStamp.commit, built: BuildStamp.date))

    @OptionGroup var common: CommonOptions
    @OptionGroup var options: PipelineOptions

    @Option(parsing: .number, help: Settings.staleAfter.help, transform: Seconds.argument)
    var staleAfter: Seconds?

    @Option(parsing: .number, help: ArgumentHelp("Update at most this many due feeds (default: all that are due).", valueName: "n"))
    var limit: Int?

    @Option(
        name: .customLong("feed"), parsing: .number,
        help: ArgumentHelp("Update this feed now, whatever its schedule (repeatable).", valueName: "feedid"),
        completion: FeedIDCompletion.kind(for: .update))
    var feeds: [Int64] = []

    @Flag(help: "Update every feed that is not gone, whatever its schedule.")
    var all = false

    @Flag(help: "Fetch and parse, but write nothing; print what would change.")
    var dryRun = false

    @Option(help: Settings.shard.help, transform: Shard.argument)
    var shard: Shard?

    public func validate() throws {
        if all && !feeds.isEmpty { throw ValidationError("--all and --feed cannot be combined") }
        try NumberArgument.requirePositive(limit, option: "--limit")
        try NumberArgument.requireFeedIDs(feeds)
    }

    public func run() throws {
        MemoryTuning.apply()
        var given = options.given
        given.add(Settings.staleAfter, staleAfter)
        given.add(Settings.shard, shard)
        let context = try CommandContext.make(.update, common: common, given: given)
        var configuration = try context.pipelineConfiguration(options)
        let trap = SignalTrap()
        configuration.fetch.stop = trap.stop
        try CommandRunner.run(context, now: configuration.clock) { () throws(PipelineError) in
            let (catalog, lock) = try CatalogAccess.openForUpdate(configuration)
            defer { withExtendedLifetime((lock, trap)) {} }
            let selection: FeedSelection = !feeds.isEmpty ? .feeds(feeds) : (all ? .all : .due(limit: limit))
            let progress = ProgressBar(console: context.console, enabled: !context.quiet)
            let report = try UpdateRun(configuration: configuration, catalog: catalog).run(selection, dryRun: dryRun) {
                FeedLog.log($0, to: context.logger)
                progress.update($0, done: $1, total: $2)
            }
            context.summary(RunSummary.record(report, command: "rss-update", dryRun: dryRun), eventful: !report.nothingHappened)
            context.noteOtherShardsDatabases(report)
            if case .due = selection, report.tally.feeds == 0, context.console.isTerminal, !context.quiet {
                context.summary(NothingDue.line((try? catalog.feeds()) ?? [], now: configuration.clock(), configuration: configuration))
            }
            let feedStates = context.feedStates(catalog, configuration: configuration)
            return CommandResult(report: report, feedStates: feedStates, exitCode: report.exitCode)
        }
    }
}
