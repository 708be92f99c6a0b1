import ArgumentParser
import FeedCommandSupport
import FeedPipeline
import FeedStorage
import Foundation

@main
struct PublishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rss-publish",
        abstract: "Publish consistent, versioned snapshots of the databases for clients to pull.",
        discussion: """
            Writes a directory any static web server can serve: manifest.json (read it first), \
            all_feeds.v<N>.sqlite (feeds, about, last_update only), feed_<id>.v<N>.sqlite per \
            feed, deltas from the last few versions, atom.xml and index.html. Files are written \
            under new names and swapped in; the manifest goes last; the previous publication's \
            files stay until the next one. Only changed databases are rewritten; a run with \
            nothing new writes nothing. Safe to run while rss-update writes.

            Exit status: 0 done; 1 some feed databases could not be read (the others were \
            published; those keep their last good snapshot); 64 usage or configuration error \
            (the output directory overlaps the data directory, for one); 70 fatal error; 75 \
            another rss-publish holds the output directory.
            """)

    @Option(help: ArgumentHelp(Setting.publishDirectory.summary + Setting.publishDirectory.helpSuffix, valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp(Setting.dataDirectory.summary + Setting.dataDirectory.helpSuffix, valueName: "dir"))
    var dataDir: String?

    @Option(name: .customLong("feed"), help: ArgumentHelp("Publish only this feed (repeatable); others are carried over.", valueName: "feedid"))
    var feeds: [Int64] = []

    @Option(help: ArgumentHelp(Setting.deltas.summary + Setting.deltas.helpSuffix, valueName: "n"))
    var deltas: Int?

    @Flag(help: "Rewrite every database even when unchanged.")
    var full = false

    @Option(help: ArgumentHelp(Setting.siteURL.summary + Setting.siteURL.helpSuffix, valueName: "url"))
    var siteURL: String?

    @Option(help: ArgumentHelp(Setting.title.summary + Setting.title.helpSuffix, valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp(Setting.metricsFile.summary + Setting.metricsFile.helpSuffix, valueName: "path"))
    var metricsFile: String?

    @OptionGroup var common: CommonOptions

    func run() throws {
        var given: [String: String] = [:]
        given[Setting.publishDirectory.key] = out
        given[Setting.dataDirectory.key] = dataDir
        given[Setting.deltas.key] = deltas.map(String.init)
        given[Setting.siteURL.key] = siteURL
        given[Setting.title.key] = title
        given[Setting.metricsFile.key] = metricsFile
        let context = try CommandContext.make(
            command: "rss-publish", section: "publish",
            settings: [.dataDirectory, .publishDirectory, .deltas, .siteURL, .title, .metricsFile], common: common, given: given)
        let settings = context.settings
        var pipeline = PipelineConfiguration()
        pipeline.dataDirectory = settings.string(.dataDirectory) ?? "./data"
        if let now = try context.fixedNow() { pipeline.fixClock(at: now) }
        var publish = PublishConfiguration()
        let out = settings.string(.publishDirectory) ?? "./publish"
        publish.outputDirectory = out
        try context.check { () throws(SettingsError) in
            publish.retainedVersions = try settings.int(.deltas, in: 0...50)
            if let siteURL = settings.string(.siteURL), !siteURL.hasSuffix("/") { throw settings.invalid(.siteURL, "a URL ending with /") }
        }
        publish.full = full
        publish.siteURL = settings.string(.siteURL)
        publish.title = settings.string(.title) ?? "Feedmill"
        do {
            try PublishRun.refuseOverlap(output: out, data: pipeline.dataDirectory)
            try CatalogGuard.refuseLostCatalog(pipeline)
        } catch {
            context.fail(error.description)
            context.writeMetrics(report: nil, exitCode: error.exitCode, now: pipeline.clock())
            throw ExitCode(error.exitCode)
        }
        guard FileManager.default.fileExists(atPath: pipeline.catalogPath) else {
            context.fail("no catalog at \(pipeline.catalogPath): run rss-create first")
            context.writeMetrics(report: nil, exitCode: ExitStatus.fatal, now: pipeline.clock())
            throw ExitCode(ExitStatus.fatal)
        }
        do {
            let catalog: Catalog
            do {
                catalog = try Catalog(readingAt: pipeline.catalogPath)
            } catch {
                throw PipelineError.storage(error)
            }
            try CatalogGuard.refuseEmptyCatalog(catalog, pipeline)
            let report = try PublishRun(pipeline: pipeline, configuration: publish, catalog: catalog).run(only: feeds.isEmpty ? nil : feeds)
            context.writeMetrics(report: nil, exitCode: report.exitCode, now: pipeline.clock())
            for failure in report.failures {
                context.fail("feed \(failure.feedID) not published (its last good snapshot is kept): \(failure.message)")
            }
            if context.quiet {
            } else if report.unchanged {
                print("rss-publish: nothing changed since generation \(report.generation); nothing written")
            } else {
                print("rss-publish: generation \(report.generation) in \(String(format: "%.2f", report.duration)) s: \(report.feedsWritten) feed database(s) written, \(report.feedsUnchanged) unchanged, \(report.deltasWritten) delta(s); \(report.filesWritten) files, \(report.bytesWritten) bytes; \(report.filesRemoved) old file(s) removed")
                print("  clients read \(out)/manifest.json; people read \(out)/index.html")
            }
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        } catch let error as PipelineError {
            context.fail(error.description)
            context.writeMetrics(report: nil, exitCode: error.exitCode, now: pipeline.clock())
            throw ExitCode(error.exitCode)
        }
    }
}
