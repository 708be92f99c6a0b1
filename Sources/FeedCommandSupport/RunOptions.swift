import ArgumentParser
import FeedPipeline
import Foundation

/// Options shared by the commands that run the pipeline.
public struct RunOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Directory holding all_feeds.sqlite and the feed_<id>.sqlite files.", valueName: "dir"))
    public var dataDir: String = "./data"

    @Option(help: "Transfers in flight at most.")
    public var concurrency: Int = 16

    @Option(help: "Transfers in flight to one host at most.")
    public var perHost: Int = 2

    @OptionGroup(title: "Fetching")
    public var fetch: FetchOptions

    public init() {}

    public func validate() throws {
        guard concurrency >= 1, concurrency <= 256 else { throw ValidationError("--concurrency must be between 1 and 256") }
        guard perHost >= 1 else { throw ValidationError("--per-host must be at least 1") }
    }

    public var configuration: PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.dataDirectory = dataDir
        configuration.concurrency = concurrency
        configuration.perHostLimit = perHost
        configuration.fetch = fetch.configuration
        return configuration
    }
}

/// `90`, `90s`, `15m`, `1h`, `2d` as seconds (for `--stale-after`).
public struct Seconds: ExpressibleByArgument, Sendable {
    public var value: Int

    public init(_ value: Int) {
        self.value = value
    }

    public init?(argument: String) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = argument.lowercased()
        var multiplier = 1
        if let last = text.last, let unit = units[last] {
            multiplier = unit
            text.removeLast()
        }
        guard let number = Int(text), number >= 0 else { return nil }
        value = number * multiplier
    }

    public var defaultValueDescription: String { "\(value)s" }
}
