import ArgumentParser
import FeedPipeline

/// What a command's work ended with: the run report (for metrics), and the exit status.
public struct CommandResult {
    public var report: RunReport?
    public var exitCode: Int32

    public init(report: RunReport?, exitCode: Int32) {
        self.report = report
        self.exitCode = exitCode
    }
}

/// The skeleton every command shares once its settings are resolved: do the work; a run that
/// could not work at all is one logged line and its documented exit status; either way
/// `--metrics-file` is written; a non-zero status ends the process with it.
public enum CommandRunner {
    /// - Parameter now: the run's clock (pinned by `--now`), for the metrics' timestamp.
    public static func run(
        _ context: CommandContext, now: () -> Int64, _ work: () throws(PipelineError) -> CommandResult
    ) throws {
        let result: CommandResult
        do {
            result = try work()
        } catch {
            context.fail(error.description)
            result = CommandResult(report: nil, exitCode: error.exitCode)
        }
        context.writeMetrics(report: result.report, exitCode: result.exitCode, now: now())
        if result.exitCode != ExitStatus.success { throw ExitCode(result.exitCode) }
    }
}
