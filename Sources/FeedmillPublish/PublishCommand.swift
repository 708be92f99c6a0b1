import ArgumentParser
import FeedBasics
import FeedCommandSupport
import FeedPublishCommandSupport
import FeedPublishing
import FeedStorage
import Foundation

public struct PublishCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "rss-publish",
        abstract: "Publish consistent, versioned snapshots of the databases for clients to pull.",
        usage: """
            rss-publish [--data-dir <dir>] [--out <dir>|s3://<bucket>/<prefix>] [--feed <feedid> ...] [--full] [--shard <K/N>]
            rss-publish --recover [--data-dir <dir>] [--out <dir>|s3://<bucket>/<prefix>]
            rss-publish --generate-key <file>
            """,
        discussion: """
            Writes a directory any static web server can serve (publication format 2): \
            manifest.json, the small root clients read first; feed_<id>.json, one pointer per \
            feed; snapshots and deltas named by their SHA-256 (all_feeds.<sha256>.sqlite with \
            feeds, about, last_update only; feed_<id>.<sha256>.sqlite; \
            feed_<id>.<sha256>.delta.json), which never change; all_feeds.sqlite and \
            feed_<id>.sqlite for original z_rss clients; atom.xml and index.html. The root is \
            committed last, over the one read at the start; files no longer named are removed \
            after --retire-after. Only changed databases are rewritten, and only changed \
            feeds' pointers; a run with nothing new writes nothing. Safe to run while \
            rss-update writes. With --shard K/N, publishes the feeds of shard K only, and \
            commits the root with the other shards' entries. With --signing-key, the root and \
            every pointer written are signed (Ed25519), for clients that pin the public key \
            (rss-pull --trust).

            \(ExitStatus.helpText(for: "rss-publish", codes: [0, 1, 64, 66, 69, 70, 73, 74, 75, 77]))
            """,
        version: FeedmillVersion.line("rss-publish", commit: BuildStamp.commit, built: BuildStamp.date))

    @Option(help: Settings.publishDirectory.help, completion: .directory)
    var out: String?

    @Option(help: Settings.dataDirectory.help, completion: .directory)
    var dataDir: String?

    @Option(
        name: .customLong("feed"), parsing: .number,
        help: ArgumentHelp("Publish only this feed (repeatable); others are carried over.", valueName: "feedid"),
        completion: FeedIDCompletion.kind(for: .publish))
    var feeds: [Int64] = []

    @Option(parsing: .number, help: Settings.deltas.help)
    var deltas: Int?

    @Flag(help: "Rewrite every database even when unchanged.")
    var full = false

    @Flag(help: ArgumentHelp(
        "When manifest.json or this shard's record is missing or unusable: adopt again the files whose bytes match the "
            + "digests of the newest intact publisher record of the shard (or format 1's .feedmill-publisher.json), "
            + "leave anything else alone, rewrite every pointer of the shard, and publish."))
    var recover = false

    @Option(help: Settings.shard.help, transform: Shard.argument)
    var shard: Shard?

    @Option(parsing: .number, help: Settings.retireAfter.help, transform: Seconds.argument)
    var retireAfter: Seconds?

    @Option(help: Settings.siteURL.help)
    var siteURL: String?

    @Option(help: Settings.title.help)
    var title: String?

    @Option(help: Settings.metricsFile.help, completion: .file())
    var metricsFile: String?

    @Option(help: Settings.signingKey.help, completion: .file())
    var signingKey: String?

    @Option(
        help: ArgumentHelp(
            "Create a new signing key in this file (mode 0600, never over an existing file), print its public key for "
                + "clients to pin, and exit.",
            valueName: "file"),
        completion: .file())
    var generateKey: String?

    @OptionGroup var common: CommonOptions

    public func validate() throws {
        try NumberArgument.requireFeedIDs(feeds)
    }

    public func run() throws {
        if let generateKey {
            do {
                let key = try SigningKeyFile.generate(at: generateKey)
                print(key.publicKeyText)
                FileHandle.standardError.write(Data("rss-publish: wrote the signing key \(generateKey) (mode 0600); give clients its public key above (rss-pull --trust), keep the file secret\n".utf8))
                return
            } catch {
                FileHandle.standardError.write(Data("rss-publish: \(error.description)\n".utf8))
                throw ExitCode(error.exitCode)
            }
        }
        var given = GivenSettings()
        given.add(Settings.publishDirectory, out)
        given.add(Settings.dataDirectory, dataDir)
        given.add(Settings.deltas, deltas)
        given.add(Settings.siteURL, siteURL)
        given.add(Settings.title, title)
        given.add(Settings.metricsFile, metricsFile)
        given.add(Settings.shard, shard)
        given.add(Settings.retireAfter, retireAfter)
        given.add(Settings.signingKey, signingKey)
        let context = try CommandContext.make(.publish, common: common, given: given)
        let (data, configured) = context.publishConfiguration(full: full)
        var publish = configured
        if let path = context.settings[Settings.signingKey] {
            do {
                publish.signingKey = try SigningKeyFile.read(path)
            } catch {
                FileHandle.standardError.write(Data("rss-publish: \(error.description)\n".utf8))
                throw ExitCode(error.exitCode)
            }
        }
        try CommandRunner.run(context, now: publish.clock) { () throws(PublishError) in
            let catalog = try PublishRun.openCatalog(data)
            let target = try PublicationTargetChoice.target(for: publish.outputDirectory, writer: context.otherUserPolicy)
            let report = try PublishRun(data: data, configuration: publish, catalog: catalog, target: target)
                .run(only: feeds.isEmpty ? nil : feeds, recover: recover)
            for line in report.recovery { context.logger.notice("\(line)") }
            for failure in report.failures {
                context.fail("feed \(failure.feedID) not published (its last good snapshot is kept): \(failure.message)")
            }
            for warning in report.warnings { context.logger.warning("\(warning)") }
            let summary = PublishSummary.record(report, shard: publish.shard.isAll ? nil : publish.shard.label, outputDirectory: publish.outputDirectory)
            context.summary(summary, eventful: !report.unchanged)
            return CommandResult(families: report.metricFamilies(finishedAt: publish.clock()), exitCode: ExitStatus.of(report))
        }
    }
}
