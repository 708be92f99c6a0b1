import ArgumentParser
import FeedBasics
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
        environment: [String: String] = ProcessInfo.processInfo.environment, console: Console? = nil
    ) throws -> CommandContext {
        let console = console ?? Console(isJournal: JournalStream.isStandardError(environment: environment))
        if common.printSettingsReference {
            print(SettingsReference.tabSeparated(), terminator: "")
            throw ExitCode.success
        }
        if common.printSettingsTable {
            print(SettingsReference.markdown(), terminator: "")
            throw ExitCode.success
        }
        if common.printExitStatusReference {
            print(ExitStatus.markdownReference, terminator: "")
            throw ExitCode.success
        }
        let resolved: ResolvedSettings
        do throws(SettingsError) {
            let located = try ConfigFileLocator.load(commandLine: common.config, environment: environment)
            resolved = try ResolvedSettings(
                command: command, given: given.merging(common.given), environment: environment, configFile: located.file,
                configSource: located.source, configSearch: located.candidates)
            // Before the logger is made, which these two shape.
            _ = try resolved.value(Settings.logFormat)
            _ = try resolved.value(Settings.now)
        } catch {
            reportFailure(command.executable, error.description, journal: console.isJournal)
            throw ExitCode(error.exitStatus)
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
        try rethrowing(try body(), as: { (error: SettingsError) in usageError(error.description) })
    }

    /// A usage or configuration error, logged: the error to throw to end with status 64.
    public func usageError(_ message: String) -> any Error {
        fail(message)
        return ExitCode(ExitStatus.usage)
    }

    /// Whether this run may write into a directory another user owns, and the command line
    /// its refusal suggests running as the owner (``OtherUserPolicy``).
    public var otherUserPolicy: OtherUserPolicy {
        OtherUserPolicy(allowOtherUser: settings[Settings.allowOtherUser], commandLine: [command.executable] + (MultiCall.command(in: CommandLine.arguments)?.arguments ?? []))
    }

    /// `data-dir from /etc/feedmill/feedmill.toml`: where the data directory's path came
    /// from, for messages that send a person to another one.
    public var dataDirectoryOrigin: String {
        let source = settings.shown(Settings.dataDirectory).source
        if case .file(let path, _, _) = source { return "\(Settings.dataDirectory.key) from \(path)" }
        return "\(Settings.dataDirectory.key) from \(source)"
    }

    /// The fixed time from `--now` or `SOURCE_DATE_EPOCH`, if any.
    public var fixedNow: Int64? { settings[Settings.now] }

    /// The end-of-run summary on standard output, unless `--quiet`.
    /// Under cron or systemd (standard error not a terminal) a run in which nothing happened
    /// prints nothing at all: cron mails whatever is printed. By hand the summary always shows.
    public func summary(_ text: String, eventful: Bool = true) {
        summary(SummaryRecord(text: text), eventful: eventful)
    }

    /// The end-of-run summary, as ``summary(_:eventful:)-(String,_)`` says; when standard error
    /// is the journal, one record there instead of lines on standard output (each would be a
    /// record of its own): in the JSON log format one object with `"event":"summary"` and the
    /// record's fields, in the text format its one line, with the record's priority.
    public func summary(_ record: SummaryRecord, eventful: Bool = true) {
        guard !quiet, eventful || console.isTerminal else { return }
        console.clearProgress()
        guard console.isJournal else {
            print(record.text, terminator: "")
            return
        }
        switch settings[Settings.logFormat] {
        case .json:
            var fields = record.fields.mapValues { Logger.MetadataValue.string($0) }
            fields["event"] = "summary"
            logger.log(level: record.level, "\(record.line)", metadata: fields)
        case .text:
            console.line(JournalStream.prefixed(record.line, level: record.level))
        }
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
}
