import ArgumentParser

/// What a command's work ended with: what the metrics file reports of the run, and the exit status.
public struct CommandResult {
    public var metrics: RunMetrics?
    /// Metrics beyond the run's outcome (``MetricsFile/Run/families``).
    public var families: [MetricFamily]
    public var exitCode: Int32

    public init(metrics: RunMetrics? = nil, families: [MetricFamily] = [], exitCode: Int32) {
        self.metrics = metrics
        self.families = families
        self.exitCode = exitCode
    }
}

/// The skeleton every command shares once its settings are resolved: do the work; a run that
/// could not work at all is one logged line and its documented exit status; either way
/// `--metrics-file` is written; a non-zero status ends the process with it.
public enum CommandRunner {
    /// - Parameter now: the run's clock (pinned by `--now`), for the metrics' timestamp.
    public static func run<Failure: CommandFailure>(
        _ context: CommandContext, now: () -> Int64, _ work: () throws(Failure) -> CommandResult
    ) throws {
        let result: CommandResult
        do {
            result = try work()
        } catch {
            context.fail(error.description)
            result = CommandResult(exitCode: error.exitStatus)
        }
        context.writeMetrics(result.metrics, families: result.families, exitCode: result.exitCode, now: now())
        if result.exitCode != ExitStatus.success { throw ExitCode(result.exitCode) }
    }
}
