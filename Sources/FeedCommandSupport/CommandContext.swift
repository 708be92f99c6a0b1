import ArgumentParser
import FeedFetching
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import Logging

/// What every command sets up before it works: its effective settings (command line >
/// environment > configuration file > defaults), a logger in the chosen format and level,
/// and the console shared by logs and the progress bar.
public struct CommandContext: Sendable {
    public let command: CommandName
    public let settings: ResolvedSettings
    public let logger: Logger
    public let console: Console
    public let quiet: Bool
    public let verbose: Bool

    /// Resolves the command's settings (``CommandName/settings``), typed. `--print-config`
    /// prints them and exits 0; a bad setting or configuration file is a one-line error and
    /// exit status 64, before the command does anything.
    /// - Parameter given: the command's options bound to their settings.
    public static func make(
        _ command: CommandName, common: CommonOptions, given: GivenSettings = GivenSettings(),
        environment: [String: String] = ProcessInfo.processInfo.environment, console: Console = Console()
    ) throws -> CommandContext {
        if common.printSettingsReference {
            print(SettingsReference.tabSeparated(), terminator: "")
            throw ExitCode.success
        }
        if common.printSettingsTable {
            print(SettingsReference.markdown(), terminator: "")
            throw ExitCode.success
        }
        let resolved: ResolvedSettings
        do {
            let located = try ConfigFileLocator.load(commandLine: common.config, environment: environment)
            resolved = try ResolvedSettings(
                command: command, given: given.merging(common.given), environment: environment, configFile: located.file,
                configSource: located.source)
            // Before the logger is made, which these two shape.
            _ = try resolved.value(Settings.logFormat)
            _ = try resolved.value(Settings.now)
        } catch {
            reportFailure(command.executable, error.description)
            throw ExitCode(ExitStatus.usage)
        }
        if common.printConfig {
            print(resolved.render(), terminator: "")
            throw ExitCode.success
        }
        let format = resolved[Settings.logFormat]
        let level: Logger.Level = common.quiet ? .error : (common.verbose ? .debug : .notice)
        let logger = Logger(label: "feedmill.\(command.executable)") { _ in
            LogLineHandler(command: command.executable, format: format, level: level, console: console)
        }
        let context = CommandContext(
            command: command, settings: resolved, logger: logger, console: console, quiet: common.quiet, verbose: common.verbose)
        try context.check { () throws(SettingsError) in try resolved.check() }
        return context
    }

    /// A setting that turned out unusable: logged, exit status 64.
    public func check<Value>(_ body: () throws(SettingsError) -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            fail(error.description)
            throw ExitCode(ExitStatus.usage)
        }
    }

    /// The fixed time from `--now` or `SOURCE_DATE_EPOCH`, if any.
    public var fixedNow: Int64? { settings[Settings.now] }

    public func fetchConfiguration(_ options: FetchOptions) throws -> FetchConfiguration {
        var configuration = FetchConfiguration()
        configuration.totalTimeout = settings[Settings.timeout]
        configuration.maxBodyBytes = settings[Settings.maxSize] << 20
        configuration.networkPolicy = settings[Settings.allowPrivateNetworks] ? .allowAll : .publicOnly
        configuration.contactURL = settings[Settings.contact]
        let environment = ProcessInfo.processInfo.environment
        try check { () throws(SettingsError) in
            // The environment's proxies and certificate authorities are held to the same rules
            // as an option: a bad one stops the command here, not every feed later.
            switch settings[Settings.proxy] {
            case nil: configuration.proxies = try Self.readEnvironment { () throws(EnvironmentVariableError) in try .fromEnvironment(environment) }
            case "none"?, ""?: configuration.proxies = .direct
            case let proxy?: configuration.proxies = .explicit(proxy, environment: environment)
            }
            configuration.certificateAuthorities = try Self.readEnvironment { () throws(EnvironmentVariableError) in
                try .fromEnvironment(environment)
            }
        }
        switch options.recording {
        case .record(let directory)?: configuration.recording = .record(directory: directory)
        case .replay(let directory)?:
            // At once, not as a failure and a backoff recorded for every feed.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                fail("--replay \(directory): no such directory (a recording is written by --record)")
                throw ExitCode(ExitStatus.usage)
            }
            configuration.recording = .replay(directory: directory)
        case nil: break
        }
        configuration.fixedNow = fixedNow
        return configuration
    }

    /// A fetch setting read from the environment, its error as a setting's.
    private static func readEnvironment<Value>(_ read: () throws(EnvironmentVariableError) -> Value) throws(SettingsError) -> Value {
        do {
            return try read()
        } catch {
            throw SettingsError(message: error.description)
        }
    }

    /// The typed settings of `rss-create` and `rss-update`.
    public func pipelineConfiguration(_ options: PipelineOptions) throws -> PipelineConfiguration {
        var configuration = dataConfiguration()
        configuration.fetch = try fetchConfiguration(options.fetch)
        configuration.concurrency = settings[Settings.concurrency]
        configuration.perHostLimit = settings[Settings.perHost]
        configuration.deadline = settings[Settings.deadline].map { Double($0.value) }
        if let keepItems = settings[Settings.keepItems] { configuration.retention.keepItems = keepItems }
        if let keepDays = settings[Settings.keepDays] { configuration.retention.keepDays = keepDays }
        return configuration
    }

    /// Where the data directory is, when a feed is due, and the clock: what every command
    /// that opens the catalog needs.
    public func dataConfiguration() -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.dataDirectory = settings[Settings.dataDirectory]
        configuration.staleAfter = settings[Settings.staleAfter].value
        if let now = fixedNow { configuration.fixClock(at: now) }
        return configuration
    }

    /// The typed settings of `rss-publish`: where the data is, and how to publish it.
    public func publishConfiguration(full: Bool) -> (data: PipelineConfiguration, publish: PublishConfiguration) {
        var publish = PublishConfiguration()
        publish.outputDirectory = settings[Settings.publishDirectory]
        publish.retainedVersions = settings[Settings.deltas]
        publish.siteURL = settings[Settings.siteURL]
        publish.title = settings[Settings.title]
        publish.full = full
        return (dataConfiguration(), publish)
    }

    /// The end-of-run summary on standard output, unless `--quiet`.
    /// Under cron or systemd (standard error not a terminal) a run in which nothing happened
    /// prints nothing at all: cron mails whatever is printed. By hand the summary always shows.
    public func summary(_ text: String, eventful: Bool = true) {
        guard !quiet, eventful || console.isTerminal else { return }
        console.clearProgress()
        print(text, terminator: "")
    }

    public func fail(_ message: String) {
        logger.error("\(message)")
    }

    /// What opening a database repaired (values written by hand), one notice each.
    public func notice(_ repairs: [String], about path: String) {
        for repair in repairs { logger.notice("\(path): \(repair)") }
    }

    /// Values a reading command found of the wrong type and read as absent (a writing command
    /// repairs them): one warning each, and how to have them repaired.
    public func warn(unreadable: [String], in path: String) {
        for problem in unreadable { logger.warning("\(path): \(problem); read as absent (the next rss-update repairs it)") }
    }

    /// Writes `--metrics-file` when set; a failure to write is logged, never fatal.
    public func writeMetrics(report: RunReport?, exitCode: Int32, now: Int64) {
        guard let path = settings[Settings.metricsFile] else { return }
        let succeeded = exitCode == ExitStatus.success || exitCode == ExitStatus.someFeedsFailed
        do {
            try MetricsFile.write(
                MetricsFile.Run(command: command.executable, finishedAt: now, succeeded: succeeded, exitCode: exitCode, report: report), to: path)
        } catch {
            fail("could not write metrics to \(path): \(error)")
        }
    }
}
