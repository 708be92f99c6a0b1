import FeedBasics
import FeedCommandSupport
import FeedPipeline
import FeedStorage

/// The update path's outcomes as exit codes and metrics (``ExitStatus`` holds the table).
extension ExitStatus {
    /// 128 + the signal when interrupted; else 0 when every feed was read (a deadline that
    /// left feeds for the next run is not a failure); 1 when some failed (recorded, retried later).
    public static func of(_ report: RunReport) -> Int32 {
        if case .signal(let number) = report.stoppedBy { return interrupted(by: number) }
        return report.tally.failed == 0 ? success : someFeedsFailed
    }

    /// 75 when another run holds the data directory, 64 for feedids the catalog lacks, 66 a
    /// feed list that is not there, 77 one or a database this user may not read or write, else 70.
    public static func of(_ error: PipelineError) -> Int32 {
        switch error {
        case .dataDirectory(let problem): return of(problem)
        case .unknownFeeds, .otherShardsFeeds: return usage
        case .feedListUnreadable(_, let code): return SystemError.isPermission(code) ? noPermission : noInput
        case .storage(let storage): return of(storage)
        case .feedList: return fatal
        }
    }
}

extension PipelineError: CommandFailure {
    public var exitStatus: Int32 { ExitStatus.of(self) }
}

extension RunReport {
    /// The exit code of a command that ran this update (``ExitStatus/of(_:)-RunReport``).
    public var exitCode: Int32 { ExitStatus.of(self) }
}

extension RunMetrics {
    /// What the metrics file says of an update run.
    public init(_ report: RunReport) {
        self.init(
            duration: report.duration,
            feeds: [
                ("updated", report.updated), ("unchanged", report.unchanged), ("failed", report.failures.count),
                ("gone", report.gone), ("not_finished", report.leftForNextRun),
            ],
            itemsInserted: report.newItems, itemsChanged: report.changedItems, itemsRemoved: report.removedItems,
            bytesFetched: report.bytes)
    }
}

extension CommandResult {
    /// The result of a command's work that ran an update.
    public init(report: RunReport, exitCode: Int32) {
        self.init(metrics: RunMetrics(report), exitCode: exitCode)
    }
}
