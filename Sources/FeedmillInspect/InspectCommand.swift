import ArgumentParser
import FeedBasics
import FeedCommandSupport
import FeedPipeline
import FeedUpdateCommandSupport

public struct InspectCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "rss-inspect",
        abstract: "Print one feed, parsed and normalised, as JSON.",
        usage: "rss-inspect [--details | --summary] [--base <url>] [--record <dir> | --replay <dir>] <source>",
        discussion: """
            SOURCE is a file path or an http(s) URL. The output is one JSON document with the \
            keys format, title, link, description, image_url, language and items (id, permalink, \
            title, summary, pubdate_unix_time, updated_unix_time, author, image_url, enclosures, \
            categories, authors): exactly what rss-update would store.

            --record DIR keeps the response for a later --replay DIR, which parses the same \
            bytes again with no network (to see what a parser change does to a feed).

            \(ExitStatus.helpText(for: "rss-inspect", codes: [0, 1, 64]))
            """,
        version: FeedmillVersion.line("rss-inspect", commit: BuildStamp.commit, built: BuildStamp.date))

    @Argument(help: "A feed file path or an http(s) URL.", completion: .file())
    var source: String

    @Option(help: ArgumentHelp("Resolve relative links against this URL (default: the URL fetched, or the feed's own link for a file).", valueName: "url"))
    var base: String?

    @Flag(help: "Also print the version, encoding, recovered XML errors, scheduling hints and id sources.")
    var details = false

    @Flag(help: "Print one line (format, title, item counts, encoding, problems) instead of JSON.")
    var summary = false

    @OptionGroup var common: CommonOptions

    @OptionGroup(title: "Fetching")
    var fetch: FetchOptions

    public func validate() throws {
        if details && summary { throw ValidationError("--details and --summary cannot be combined") }
        if let base, !(base.hasPrefix("http://") || base.hasPrefix("https://")) {
            throw ValidationError("--base must be an http or https URL")
        }
    }

    public func run() throws {
        let context = try CommandContext.make(.inspect, common: common, given: fetch.given)
        let configuration = try context.fetchConfiguration(fetch)
        do {
            let style: Inspector.Style = summary ? .summary : (details ? .details : .json)
            let output = try Inspector.inspect(FeedSource(source), baseOverride: base, style: style, configuration: configuration)
            print(output, terminator: "")
        } catch {
            context.fail(error.description)
            throw ExitCode(1)
        }
    }
}
