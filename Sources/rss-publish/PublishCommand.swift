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

            Exit status: 0 done; 64 usage error; 70 fatal error; 75 another rss-publish holds \
            the output directory.
            """)

    @Option(help: ArgumentHelp("The publish directory.", valueName: "dir"))
    var out: String = "./publish"

    @Option(help: ArgumentHelp("Directory holding all_feeds.sqlite and the feed databases.", valueName: "dir"))
    var dataDir: String = "./data"

    @Option(name: .customLong("feed"), help: ArgumentHelp("Publish only this feed (repeatable); others are carried over.", valueName: "feedid"))
    var feeds: [Int64] = []

    @Option(help: "Earlier versions of each feed kept, each with a delta to the current one.")
    var deltas: Int = 3

    @Flag(help: "Rewrite every database even when unchanged.")
    var full = false

    @Option(help: ArgumentHelp("The URL the publish directory is served at, for atom.xml's links.", valueName: "url"))
    var siteURL: String?

    @Option(help: "Title of atom.xml and index.html.")
    var title: String = "Feedmill"

    func validate() throws {
        guard deltas >= 0, deltas <= 50 else { throw ValidationError("--deltas must be between 0 and 50") }
        if let siteURL, !siteURL.hasSuffix("/") { throw ValidationError("--site-url must end with /") }
    }

    func run() throws {
        var pipeline = PipelineConfiguration()
        pipeline.dataDirectory = dataDir
        var publish = PublishConfiguration()
        publish.outputDirectory = out
        publish.retainedVersions = deltas
        publish.full = full
        publish.siteURL = siteURL
        publish.title = title
        guard FileManager.default.fileExists(atPath: pipeline.catalogPath) else {
            reportFailure("rss-publish", "no catalog at \(pipeline.catalogPath): run rss-create first")
            throw ExitCode(ExitStatus.fatal)
        }
        do {
            let catalog: Catalog
            do {
                catalog = try Catalog(path: pipeline.catalogPath)
            } catch {
                throw PipelineError.storage(error)
            }
            let report = try PublishRun(pipeline: pipeline, configuration: publish, catalog: catalog).run(only: feeds.isEmpty ? nil : feeds)
            if report.unchanged {
                print("rss-publish: nothing changed since generation \(report.generation); nothing written")
            } else {
                print("rss-publish: generation \(report.generation) in \(String(format: "%.2f", report.duration)) s: \(report.feedsWritten) feed database(s) written, \(report.feedsUnchanged) unchanged, \(report.deltasWritten) delta(s); \(report.filesWritten) files, \(report.bytesWritten) bytes; \(report.filesRemoved) old file(s) removed")
                print("  clients read \(out)/manifest.json; people read \(out)/index.html")
            }
        } catch let error as PipelineError {
            reportFailure("rss-publish", error.description)
            throw ExitCode(error.exitCode)
        }
    }
}
