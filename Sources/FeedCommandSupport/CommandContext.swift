import ArgumentParser
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
        if common.printExitStatusReference {
            print(ExitStatus.markdownReference, terminator: "")
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

    /// The typed settings of `rss-publish`: where the data is, and how to publish it.
    public func publishConfiguration(full: Bool) throws -> (data: DataDirectory, publish: PublishConfiguration) {
        var data = DataDirectory(DataDirectory.defaultPath)
        var publish = PublishConfiguration()
        try check { () throws(SettingsError) in
            data = DataDirectory(settings.text(.dataDirectory))
            publish.outputDirectory = settings.text(.publishDirectory)
            publish.retainedVersions = try settings.int(.deltas, in: 0...50)
            if let siteURL = settings.string(.siteURL), !siteURL.hasSuffix("/") { throw settings.invalid(.siteURL, "a URL ending with /") }
            publish.siteURL = settings.string(.siteURL)
            publish.title = settings.text(.title)
        }
        publish.full = full
        if let now = try fixedNow() { publish.fixClock(at: now) }
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
    public func writeMetrics(_ metrics: RunMetrics?, exitCode: Int32, now: Int64) {
        guard let path = settings.string(.metricsFile) else { return }
        let succeeded = exitCode == ExitStatus.success || exitCode == ExitStatus.someFeedsFailed
        do {
            try MetricsFile.write(
                MetricsFile.Run(command: command, finishedAt: now, succeeded: succeeded, exitCode: exitCode, metrics: metrics), to: path)
        } catch {
            fail("could not write metrics to \(path): \(error)")
        }
    }
}
