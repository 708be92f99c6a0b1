import FeedCommandSupport
import FeedPublishing

/// rss-publish's outcomes as exit codes (the table itself is ``ExitStatus``'s).
extension ExitStatus {
    /// 0, or 1 when some feeds could not be published (the others were) or something was
    /// published otherwise than the data says.
    public static func of(_ report: PublishReport) -> Int32 {
        report.complete ? success : someFeedsFailed
    }

    /// 75 when another publisher holds the output directory (or another run the data
    /// directory) or committed the root first, 64 for what the operator asked wrongly; a
    /// target's failure by its kind (69 unreachable, 77 denied, 66 missing, 74 otherwise);
    /// else 70.
    public static func of(_ error: PublishError) -> Int32 {
        switch error {
        case .busy, .rootChanged, .leaseRunningOut: return busy
        case .overlappingDirectories, .unknownFeeds: return usage
        case .otherOwner: return noPermission
        case .outputNotCreated(_, _, let denied): return denied ? noPermission : cannotCreate
        case .dataDirectory(let problem): return of(problem)
        case .unusableTarget, .storage: return fatal
        case .target(_, _, let kind):
            switch kind {
            case .unreachable: return unavailable
            case .denied: return noPermission
            case .missing: return noInput
            case .other: return ioError
            }
        }
    }
}

extension PublishError: CommandFailure {
    public var exitStatus: Int32 { ExitStatus.of(self) }
}
