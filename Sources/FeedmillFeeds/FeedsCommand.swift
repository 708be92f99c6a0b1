import ArgumentParser
import FeedBasics
import FeedCommandSupport
import FeedPipeline
import FeedUpdateCommandSupport
import FeedStorage

public struct FeedsCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "rss-feeds",
        abstract: "List, add and remove feeds, set a feed's retention, export the catalog as OPML.",
        usage: """
            rss-feeds [list] [--format <table|json>] [--data-dir <dir>]
            rss-feeds add <url> [--title <title>] [--category <path>] [--data-dir <dir>]
            rss-feeds remove <feedid> ... [--data-dir <dir>]
            rss-feeds set <feedid> (--keep-items <n> | --keep-days <days> | --run-defaults) [--data-dir <dir>]
            rss-feeds export [--title <title>] [--data-dir <dir>]
            """,
        discussion: """
            Manages the catalog (all_feeds.sqlite) without SQL. add and remove change one feed \
            and take the data directory's lock like rss-update (status 75 while a run holds it); \
            list and export only read, beside a running update. A feed added here is fetched by \
            the next rss-update. A feed list imported later with rss-create --prune removes \
            feeds it does not list, these included: export first to keep them.

            \(ExitStatus.helpText(for: "rss-feeds", codes: [0, 1, 64, 66, 70, 73, 75, 77], meanings: FeedsExitStatus.anySubcommand))
            """,
        version: FeedmillVersion.line("rss-feeds", commit: BuildStamp.commit, built: BuildStamp.date),
        subcommands: [List.self, Add.self, Remove.self, SetRetention.self, Export.self],
        defaultSubcommand: List.self)

    /// A first word that is no subcommand (`rss-feeds lst`) is refused as one, naming the
    /// subcommand it is nearest to: ArgumentParser would hand it to the default subcommand
    /// (list) and say only "Unexpected argument 'lst'". Exit status 64, as for any usage error.
    /// The multi-call `feedmill` enters `rss-feeds` here, never through `main(_:)`, which
    /// would skip that check.
    public static func mainRefusingUnknownSubcommands(_ arguments: [String]) {
        if let first = arguments.first, !first.hasPrefix("-") {
            let known = configuration.subcommands.map { $0._commandName } + ["help"]
            if !known.contains(first) {
                let suggestion = NearestName.suggestion(for: first, among: known)
                exit(withError: ValidationError(
                    "unknown subcommand \"\(first)\""
                        + (suggestion.map { ": did you mean \"\($0)\"?" } ?? "; the subcommands are " + known.dropLast().joined(separator: ", "))))
            }
        }
        main(NegativeFeedIDs.movedBehindTerminator(arguments))
    }
}

/// The data directory and the common options, shared by every subcommand.
struct FeedsOptions: ParsableArguments {
    @Option(help: Settings.dataDirectory.help, completion: .directory)
    var dataDir: String?

    @OptionGroup var common: CommonOptions

    func context() throws -> (CommandContext, PipelineConfiguration) {
        var given = GivenSettings()
        given.add(Settings.dataDirectory, dataDir)
        let context = try CommandContext.make(.feeds, common: common, given: given)
        return (context, context.dataConfiguration())
    }
}

extension FeedsCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every feed: title, items, last success, next due, last error, URL.",
            discussion: FeedsExitStatus.text(for: "list", codes: [0, 64, 66, 70], meanings: [0: "listed"]))

        @Option(help: ArgumentHelp("table (for people) or json (one array, every key always present).", valueName: "table|json"))
        var format: ListFormat = .table

        @OptionGroup var options: FeedsOptions

        func run() throws {
            let (context, configuration) = try options.context()
            try CommandRunner.run(context, now: configuration.clock) { () throws(PipelineError) in
                let catalog = try CatalogAccess.openForReading(configuration)
                let listing = try FeedManagement.list(catalog, configuration: configuration)
                context.warn(unreadable: listing.flatMap { feed in feed.unreadable.map { "feed \(feed.feedID): \($0)" } }, in: catalog.path)
                print(try FeedTable.render(listing, format: format, now: configuration.clock()), terminator: "")
                return CommandResult(exitCode: ExitStatus.success)
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a feed by URL (fetched by the next rss-update); a URL already listed keeps its feedid.",
            discussion: FeedsExitStatus.text(
                for: "add", codes: [0, 64, 66, 70, 73, 75, 77],
                meanings: [0: "added, or already listed", 64: "usage error (the URL is not an absolute http(s) URL, for one)"]))

        @Argument(help: ArgumentHelp("The feed's absolute http(s) URL.", valueName: "url"))
        var url: String

        @Option(help: "The feed's title in the list (until the feed's own is read).")
        var title: String?

        @Option(help: ArgumentHelp("Category path, as OPML nesting gives it (News/Tech).", valueName: "path"))
        var category: String?

        @OptionGroup var options: FeedsOptions

        func run() throws {
            let (context, configuration) = try options.context()
            try CommandRunner.run(context, now: configuration.clock) { () throws(PipelineError) in
                let (catalog, lock) = try CatalogAccess.openForUpdate(configuration)
                defer { withExtendedLifetime(lock) {} }
                context.notice(catalog.repairs, about: catalog.path)
                let (feed, isNew) = try FeedManagement.add(url: url, title: title, category: category, catalog: catalog)
                context.summary(
                    isNew ? "rss-feeds: added feed \(feed.feedID): \(feed.url); the next rss-update fetches it\n"
                        : "rss-feeds: already listed as feed \(feed.feedID): \(feed.url)\n")
                return CommandResult(exitCode: ExitStatus.success)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove feeds from the catalog, and their databases; their feedids are never given again.",
            discussion: FeedsExitStatus.text(
                for: "remove", codes: [0, 1, 64, 66, 70, 73, 75, 77],
                meanings: [
                    0: "removed, or removed already",
                    1: "a feed was removed from the catalog but its database was not (said on standard error)",
                    64: "usage error, or a feedid the catalog never gave (nothing was removed)",
                ]))

        @Argument(help: ArgumentHelp("The feeds to remove.", valueName: "feedid"), completion: FeedIDCompletion.kind(for: .feeds))
        var feedIDs: [Int64]

        @OptionGroup var options: FeedsOptions

        func validate() throws {
            try NumberArgument.requireFeedIDArguments(feedIDs)
        }

        func run() throws {
            let (context, configuration) = try options.context()
            try CommandRunner.run(context, now: configuration.clock) { () throws(PipelineError) in
                let (catalog, lock) = try CatalogAccess.openForUpdate(configuration)
                defer { withExtendedLifetime(lock) {} }
                context.notice(catalog.repairs, about: catalog.path)
                let listed = Set(try rethrowing(try catalog.feeds(), as: PipelineError.storage).map(\.feedID))
                let highWater = try rethrowing(try catalog.feedIDHighWater(), as: PipelineError.storage)
                // A feedid never given is a mistake, and stops everything before anything is
                // removed; one given and already removed (an earlier run of the same command,
                // interrupted) is said and passed over, so the command can simply be run again.
                try PipelineError.refuseUnknown(feedIDs, known: listed.union(feedIDs.filter { $0 >= 1 && $0 <= highWater }))
                var exitCode = ExitStatus.success
                for id in Array(Set(feedIDs)).sorted() {
                    guard listed.contains(id) else {
                        context.summary("rss-feeds: feed \(id) is not in the catalog (already removed)\n")
                        continue
                    }
                    let (feed, kept) = try FeedManagement.remove(id, catalog: catalog, configuration: configuration)
                    context.summary("rss-feeds: removed feed \(feed.feedID): \(feed.url)\n")
                    if let kept {
                        context.fail("feed \(feed.feedID)'s database not removed: \(kept)")
                        exitCode = ExitStatus.someFeedsFailed
                    }
                }
                return CommandResult(exitCode: exitCode)
            }
        }
    }

    /// `rss-feeds set`.
    struct SetRetention: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a feed's own retention, overriding --keep-items/--keep-days for it.",
            discussion: FeedsExitStatus.text(
                for: "set", codes: [0, 64, 66, 70, 73, 75, 77], meanings: [64: "usage error, or a feedid not in the catalog"]))

        @Argument(help: ArgumentHelp("The feed.", valueName: "feedid"), completion: FeedIDCompletion.kind(for: .feeds))
        var feedID: Int64

        @Option(parsing: .number, help: ArgumentHelp("Keep at most this many items (items the feed lists are always kept).", valueName: "n"))
        var keepItems: Int?

        @Option(parsing: .number, help: ArgumentHelp("Keep items published within this many days (items the feed lists are always kept).", valueName: "days"))
        var keepDays: Int?

        @Flag(help: "Clear the feed's own limits: the run's settings apply again.")
        var runDefaults = false

        @OptionGroup var options: FeedsOptions

        func validate() throws {
            try NumberArgument.requireFeedIDArguments([feedID])
            if runDefaults && (keepItems != nil || keepDays != nil) {
                throw ValidationError("--run-defaults cannot be combined with --keep-items or --keep-days")
            }
            if !runDefaults && keepItems == nil && keepDays == nil { throw ValidationError("nothing to set: give --keep-items, --keep-days or --run-defaults") }
            // The same limits as the run's --keep-items and --keep-days.
            if let keepItems, !Retention.itemLimits.contains(keepItems) {
                throw ValidationError(
                    "--keep-items must be a whole number from \(Retention.itemLimits.lowerBound) to \(Retention.itemLimits.upperBound); got \(keepItems)")
            }
            if let keepDays, !Retention.dayLimits.contains(keepDays) {
                throw ValidationError(
                    "--keep-days must be a whole number from \(Retention.dayLimits.lowerBound) to \(Retention.dayLimits.upperBound); got \(keepDays)")
            }
        }

        func run() throws {
            let (context, configuration) = try options.context()
            try CommandRunner.run(context, now: configuration.clock) { () throws(PipelineError) in
                let (catalog, lock) = try CatalogAccess.openForUpdate(configuration)
                defer { withExtendedLifetime(lock) {} }
                context.notice(catalog.repairs, about: catalog.path)
                let feed = try FeedManagement.updateRetention(of: feedID, catalog: catalog) { retention in
                    if runDefaults { retention = .keepEverything }
                    if let keepItems { retention.keepItems = keepItems }
                    if let keepDays { retention.keepDays = keepDays }
                }
                context.summary("rss-feeds: feed \(feed.feedID) keeps \(FeedTable.describe(feed.state.retention)) from its next update\n")
                return CommandResult(exitCode: ExitStatus.success)
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the catalog as OPML 2.0 (categories nested), ready for rss-create --opml.",
            discussion: FeedsExitStatus.text(for: "export", codes: [0, 64, 66, 70], meanings: [0: "printed"]))

        @Option(help: "The OPML head's title.")
        var title = "Feedmill feeds"

        @OptionGroup var options: FeedsOptions

        func run() throws {
            let (context, configuration) = try options.context()
            try CommandRunner.run(context, now: configuration.clock) { () throws(PipelineError) in
                let catalog = try CatalogAccess.openForReading(configuration)
                let feeds = try rethrowing(try catalog.feeds(), as: PipelineError.storage)
                context.warn(unreadable: feeds.flatMap { feed in feed.unreadable.map { "feed \(feed.feedID): \($0)" } }, in: catalog.path)
                print(FeedManagement.opml(feeds, title: title), terminator: "")
                return CommandResult(exitCode: ExitStatus.success)
            }
        }
    }
}
