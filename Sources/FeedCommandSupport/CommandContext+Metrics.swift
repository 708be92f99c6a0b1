import FeedBasics

/// `--metrics-file`, written at the end of every command that has it.
extension CommandContext {
    /// Writes `--metrics-file` when set; a failure to write is logged, never fatal.
    public func writeMetrics(_ metrics: RunMetrics?, families: [MetricFamily] = [], exitCode: Int32, now: Int64) {
        guard let path = settings[Settings.metricsFile] else { return }
        let succeeded = exitCode == ExitStatus.success || exitCode == ExitStatus.someFeedsFailed
        let shard = settings[Settings.shard]
        do {
            try MetricsFile.write(
                MetricsFile.Run(
                    command: command.executable, finishedAt: now, succeeded: succeeded, exitCode: exitCode, metrics: metrics,
                    shard: shard.isAll ? nil : shard.label, families: families),
                to: path)
        } catch {
            fail("could not write metrics to \(path): \(error)")
        }
    }
}
