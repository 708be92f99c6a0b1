import ArgumentParser

/// Options every command has: where settings come from, how it logs, and the clock.
public struct CommonOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Configuration file (default: $FEEDMILL_CONFIG, else ./feedmill.toml when present).", valueName: "path"))
    public var config: String?

    @Flag(help: "Print the effective settings and where each came from, then exit.")
    public var printConfig = false

    @Option(help: ArgumentHelp(
        Setting.logFormat.summary + Setting.logFormat.helpSuffix,
        valueName: LogLineHandler.Format.allCases.map(\.rawValue).joined(separator: "|")))
    public var logFormat: String?

    @Flag(name: .shortAndLong, help: "Print errors only: no progress, no summary.")
    public var quiet = false

    @Flag(name: .shortAndLong, help: "Log every feed, not only failures.")
    public var verbose = false

    @Option(help: ArgumentHelp(Setting.now.summary + " (env SOURCE_DATE_EPOCH)", valueName: "unix-time"))
    public var now: Int64?

    /// For `Scripts/generate-docs`: every setting as tab-separated lines, for feedmill.toml(5).
    @Flag(help: .private)
    public var printSettingsReference = false

    /// For `Scripts/generate-docs`: the exit status table, for docs/generated/exit-status.md.
    @Flag(help: .private)
    public var printExitStatusReference = false

    public init() {}

    public func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be combined") }
    }

    public var given: [String: String] {
        Setting.given([(.logFormat, logFormat), (.now, now.map(String.init))])
    }
}

/// Options of the commands that fetch: `rss-create`, `rss-update`, `rss-inspect`.
public struct FetchOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(Setting.allowPrivateNetworks.summary + Setting.allowPrivateNetworks.helpSuffix))
    public var allowPrivateNetworks: Bool?

    @Option(help: ArgumentHelp(Setting.contact.summary + Setting.contact.helpSuffix, valueName: "url"))
    public var contact: String?

    @Option(help: ArgumentHelp(Setting.timeout.summary + Setting.timeout.helpSuffix, valueName: "seconds"))
    public var timeout: Double?

    @Option(help: ArgumentHelp(Setting.proxy.summary + Setting.proxy.helpSuffix, valueName: "url|none"))
    public var proxy: String?

    @Option(help: ArgumentHelp(Setting.maxSize.summary + Setting.maxSize.helpSuffix, valueName: "mib"))
    public var maxSize: Int?

    @Option(help: ArgumentHelp(
        "Fetch from the network and store every response (status, headers, body) in this directory, content-addressed.",
        valueName: "dir"))
    public var record: String?

    @Option(help: ArgumentHelp(
        "Answer every fetch from a directory written by --record, with no network; a request never recorded fails.",
        valueName: "dir"))
    public var replay: String?

    public init() {}

    public func validate() throws {
        if record != nil && replay != nil { throw ValidationError("--record and --replay cannot be combined") }
    }

    public var given: [String: String] {
        Setting.given([
            (.allowPrivateNetworks, allowPrivateNetworks.map { $0 ? "true" : "false" }), (.contact, contact),
            (.timeout, timeout.map(Setting.formatNumber)), (.maxSize, maxSize.map(String.init)), (.proxy, proxy),
        ])
    }

    public var recording: RecordingModeOption? {
        if let record { return .record(record) }
        if let replay { return .replay(replay) }
        return nil
    }

    public static let settings: [Setting] = [.timeout, .maxSize, .contact, .allowPrivateNetworks, .proxy]
}

/// `--record`/`--replay` as given; turned into the fetcher's ``RecordingMode`` by the context.
public enum RecordingModeOption: Sendable, Equatable {
    case record(String)
    case replay(String)
}

/// Options of the commands that run the pipeline over a data directory.
public struct PipelineOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Setting.dataDirectory.summary + Setting.dataDirectory.helpSuffix, valueName: "dir"))
    public var dataDir: String?

    @Option(help: ArgumentHelp(Setting.concurrency.summary + Setting.concurrency.helpSuffix, valueName: "n"))
    public var concurrency: Int?

    @Option(help: ArgumentHelp(Setting.perHost.summary + Setting.perHost.helpSuffix, valueName: "n"))
    public var perHost: Int?

    @Option(help: ArgumentHelp(Setting.deadline.summary + Setting.deadline.helpSuffix, valueName: "duration"))
    public var deadline: String?

    @Option(help: ArgumentHelp(Setting.metricsFile.summary + Setting.metricsFile.helpSuffix, valueName: "path"))
    public var metricsFile: String?

    @Option(help: ArgumentHelp(Setting.keepItems.summary + Setting.keepItems.helpSuffix, valueName: "n"))
    public var keepItems: Int?

    @Option(help: ArgumentHelp(Setting.keepDays.summary + Setting.keepDays.helpSuffix, valueName: "days"))
    public var keepDays: Int?

    @OptionGroup(title: "Fetching")
    public var fetch: FetchOptions

    public init() {}

    public var given: [String: String] {
        fetch.given.merging(
            Setting.given([
                (.dataDirectory, dataDir), (.concurrency, concurrency.map(String.init)), (.perHost, perHost.map(String.init)),
                (.deadline, deadline), (.metricsFile, metricsFile), (.keepItems, keepItems.map(String.init)),
                (.keepDays, keepDays.map(String.init)),
            ])
        ) { $1 }
    }

    public static let settings: [Setting] =
        [.dataDirectory, .concurrency, .perHost, .deadline, .keepItems, .keepDays, .metricsFile] + FetchOptions.settings
}
