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
    public let command: String
    public let settings: ResolvedSettings
    public let logger: Logger
    public let console: Console
    public let quiet: Bool
    public let verbose: Bool

    /// Resolves the settings. `--print-config` prints them and exits 0; a bad setting or
    /// configuration file is a one-line error and exit status 64.
    public static func make(
        command: String, section: String, settings: [Setting], common: CommonOptions, given: [String: String],
        environment: [String: String] = ProcessInfo.processInfo.environment, console: Console = Console()
    ) throws -> CommandContext {
        if common.printSettingsReference {
            for setting in Setting.all where setting.inFile {
                print([setting.key, setting.environment ?? "", setting.defaultValue ?? "", setting.summary].joined(separator: "\t"))
            }
            throw ExitCode.success
        }
        let resolved: ResolvedSettings
        do {
            let located = try ConfigFileLocator.load(commandLine: common.config, environment: environment)
            resolved = try ResolvedSettings(
                command: section, settings: settings + [.logFormat, .now], commandLine: given.merging(common.given) { $1 },
                environment: environment, configFile: located.file, configSource: located.source)
            _ = try resolved.choice(.logFormat, LogLineHandler.Format.allCases.map(\.rawValue))
            _ = try resolved.epochSeconds(.now)
        } catch {
            reportFailure(command, error.description)
            throw ExitCode(ExitStatus.usage)
        }
        if common.printConfig {
            print(resolved.render(), terminator: "")
            throw ExitCode.success
        }
        // Checked above: the setting is text or json.
        let format = LogLineHandler.Format(rawValue: resolved.text(.logFormat)) ?? .text
        let level: Logger.Level = common.quiet ? .error : (common.verbose ? .debug : .notice)
        let logger = Logger(label: "feedmill.\(command)") { _ in
            LogLineHandler(command: command, format: format, level: level, console: console)
        }
        return CommandContext(command: command, settings: resolved, logger: logger, console: console, quiet: common.quiet, verbose: common.verbose)
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
    public func fixedNow() throws -> Int64? {
        try check { () throws(SettingsError) in try settings.epochSeconds(.now) }
    }

    public func fetchConfiguration(_ options: FetchOptions) throws -> FetchConfiguration {
        var configuration = FetchConfiguration()
        try check { () throws(SettingsError) in
            configuration.totalTimeout = try settings.positiveDouble(.timeout)
            configuration.maxBodyBytes = try settings.int(.maxSize, in: 1...1024) << 20
            configuration.networkPolicy = try settings.bool(.allowPrivateNetworks) ? .allowAll : .publicOnly
            let contact = settings.string(.contact) ?? FetchConfiguration.defaultContactURL
            guard contact.hasPrefix("http://") || contact.hasPrefix("https://") || contact.hasPrefix("mailto:") else {
                throw settings.invalid(.contact, "an http(s) or mailto: URL")
            }
            configuration.contactURL = contact
            let environment = ProcessInfo.processInfo.environment
            // The environment's proxies and certificate authorities are held to the same rules
            // as an option: a bad one stops the command here, not every feed later.
            switch settings.string(.proxy) {
            case nil: configuration.proxies = try Self.readEnvironment { () throws(EnvironmentVariableError) in try .fromEnvironment(environment) }
            case "none"?, ""?: configuration.proxies = .direct
            case let proxy?:
                if let problem = ProxyURL.problem(proxy) {
                    throw settings.invalid(.proxy, "a proxy URL (http://host:port, socks5h://host:port) or none: \(problem)")
                }
                configuration.proxies = .explicit(proxy, environment: environment)
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
        configuration.fixedNow = try fixedNow()
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
        var configuration = PipelineConfiguration()
        configuration.fetch = try fetchConfiguration(options.fetch)
        try check { () throws(SettingsError) in
            configuration.dataDirectory = settings.text(.dataDirectory)
            configuration.concurrency = try settings.int(.concurrency, in: 1...256)
            configuration.perHostLimit = try settings.int(.perHost, in: 1...64)
            configuration.deadline = try settings.seconds(.deadline).map(Double.init)
            if settings.string(.keepItems) != nil { configuration.retention.keepItems = try settings.int(.keepItems, in: Retention.itemLimits) }
            if settings.string(.keepDays) != nil { configuration.retention.keepDays = try settings.int(.keepDays, in: Retention.dayLimits) }
            if settings.settings.contains(.staleAfter), let staleAfter = try settings.seconds(.staleAfter) {
                configuration.staleAfter = staleAfter
            }
        }
        if let now = try fixedNow() { configuration.fixClock(at: now) }
        return configuration
    }

    /// The typed settings of `rss-publish`: where the data is, and how to publish it.
    public func publishConfiguration(full: Bool) throws -> (data: PipelineConfiguration, publish: PublishConfiguration) {
        var data = PipelineConfiguration()
        var publish = PublishConfiguration()
        try check { () throws(SettingsError) in
            data.dataDirectory = settings.text(.dataDirectory)
            publish.outputDirectory = settings.text(.publishDirectory)
            publish.retainedVersions = try settings.int(.deltas, in: 0...50)
            if let siteURL = settings.string(.siteURL), !siteURL.hasSuffix("/") { throw settings.invalid(.siteURL, "a URL ending with /") }
            publish.siteURL = settings.string(.siteURL)
            publish.title = settings.text(.title)
        }
        publish.full = full
        if let now = try fixedNow() { data.fixClock(at: now) }
        return (data, publish)
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
        guard let path = settings.string(.metricsFile) else { return }
        let succeeded = exitCode == ExitStatus.success || exitCode == ExitStatus.someFeedsFailed
        do {
            try MetricsFile.write(
                MetricsFile.Run(command: command, finishedAt: now, succeeded: succeeded, exitCode: exitCode, report: report), to: path)
        } catch {
            fail("could not write metrics to \(path): \(error)")
        }
    }
}
