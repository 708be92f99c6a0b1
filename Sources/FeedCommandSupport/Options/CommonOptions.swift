import ArgumentParser

/// Options every command has: where settings come from, how it logs, and the clock.
public struct CommonOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Configuration file (default: $FEEDMILL_CONFIG, else the first of ./feedmill.toml, ~/.config/feedmill/feedmill.toml, "
                + "\(ConfigFileLocator.systemPath) that exists).", valueName: "path"),
        completion: .file(extensions: ["toml"]))
    public var config: String?

    @Flag(help: "Print the effective settings and where each came from, then exit.")
    public var printConfig = false

    @Option(help: Settings.logFormat.help)
    public var logFormat: LogLineHandler.Format?

    @Flag(name: .shortAndLong, help: "Print errors only: no progress, no summary.")
    public var quiet = false

    @Flag(name: .shortAndLong, help: "Log every feed, not only failures.")
    public var verbose = false

    @Option(parsing: .number, help: Settings.now.help)
    public var now: Int64?

    /// Writing into a directory another user owns: refused unless this is given, because
    /// what root leaves there the service can no longer write (``OtherUserPolicy``).
    @Flag(help: ArgumentHelp(Settings.allowOtherUser.summary + " (env \(Settings.allowOtherUser.environment)=1)"))
    public var allowOtherUser = false

    /// For `Scripts/generate-docs`: every setting as tab-separated lines, for feedmill.toml(5).
    @Flag(help: .private)
    public var printSettingsReference = false

    /// For `Scripts/generate-docs`: every setting as a markdown table, for docs/generated/settings.md.
    @Flag(help: .private)
    public var printSettingsTable = false

    /// For `Scripts/generate-docs`: the exit status table, for docs/generated/exit-status.md.
    @Flag(help: .private)
    public var printExitStatusReference = false

    public init() {}

    public func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be combined") }
    }

    public var given: GivenSettings {
        var given = GivenSettings()
        given.add(Settings.logFormat, logFormat)
        given.add(Settings.now, now)
        given.add(Settings.allowOtherUser, allowOtherUser ? true : nil)
        return given
    }
}

extension LogLineHandler.Format: ExpressibleByArgument {}

/// Options of the commands that fetch: `rss-create`, `rss-update`, `rss-inspect`.
public struct FetchOptions: ParsableArguments {
    @Flag(inversion: .prefixedNo, help: Settings.allowPrivateNetworks.help)
    public var allowPrivateNetworks: Bool?

    @Option(help: Settings.contact.help)
    public var contact: String?

    @Option(parsing: .number, help: Settings.timeout.help)
    public var timeout: Double?

    @Option(help: Settings.proxy.help, completion: .list(["none"]))
    public var proxy: String?

    @Option(parsing: .number, help: Settings.maxSize.help)
    public var maxSize: Int?

    @Option(
        help: ArgumentHelp(
            "Fetch from the network and store every response (status, headers, body) in this directory, content-addressed.",
            valueName: "dir"),
        completion: .directory)
    public var record: String?

    @Option(
        help: ArgumentHelp(
            "Answer every fetch from a directory written by --record, with no network; a request never recorded fails.",
            valueName: "dir"),
        completion: .directory)
    public var replay: String?

    public init() {}

    public func validate() throws {
        if record != nil && replay != nil { throw ValidationError("--record and --replay cannot be combined") }
    }

    public var given: GivenSettings {
        var given = GivenSettings()
        given.add(Settings.allowPrivateNetworks, allowPrivateNetworks)
        given.add(Settings.contact, contact)
        given.add(Settings.timeout, timeout)
        given.add(Settings.maxSize, maxSize)
        given.add(Settings.proxy, proxy)
        return given
    }

    public var recording: RecordingModeOption? {
        if let record { return .record(record) }
        if let replay { return .replay(replay) }
        return nil
    }
}

/// `--record`/`--replay` as given; turned into the fetcher's ``RecordingMode`` by the context.
public enum RecordingModeOption: Sendable, Equatable {
    case record(String)
    case replay(String)
}

/// Options of the commands that run the pipeline over a data directory.
public struct PipelineOptions: ParsableArguments {
    @Option(help: Settings.dataDirectory.help, completion: .directory)
    public var dataDir: String?

    @Option(parsing: .number, help: Settings.concurrency.help)
    public var concurrency: Int?

    @Option(parsing: .number, help: Settings.perHost.help)
    public var perHost: Int?

    @Option(parsing: .number, help: Settings.deadline.help, transform: Seconds.argument)
    public var deadline: Seconds?

    @Option(help: Settings.metricsFile.help, completion: .file())
    public var metricsFile: String?

    @Option(parsing: .number, help: Settings.keepItems.help)
    public var keepItems: Int?

    @Option(parsing: .number, help: Settings.keepDays.help)
    public var keepDays: Int?

    @OptionGroup(title: "Fetching")
    public var fetch: FetchOptions

    public init() {}

    public var given: GivenSettings {
        var given = fetch.given
        given.add(Settings.dataDirectory, dataDir)
        given.add(Settings.concurrency, concurrency)
        given.add(Settings.perHost, perHost)
        given.add(Settings.deadline, deadline)
        given.add(Settings.metricsFile, metricsFile)
        given.add(Settings.keepItems, keepItems)
        given.add(Settings.keepDays, keepDays)
        return given
    }
}
