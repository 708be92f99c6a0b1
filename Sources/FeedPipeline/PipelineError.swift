import FeedFetching
import FeedStorage

/// Why a run could not do its work at all (as opposed to one feed failing).
public enum PipelineError: Error, CustomStringConvertible, Equatable {
    case busy(lockPath: String, holder: String)
    case dataDirectory(path: String, reason: String)
    case feedList(source: String, reason: String)
    case storage(StorageError)

    public var description: String {
        switch self {
        case .busy(let lockPath, let holder):
            let who = holder.allSatisfy(\.isNumber) ? "another Feedmill run (pid \(holder))" : holder
            return "\(who) is using \(lockPath); try again when it has finished"
        case .dataDirectory(let path, let reason):
            return "cannot use data directory \(path): \(reason)"
        case .feedList(let source, let reason):
            return "cannot read the feed list \(source): \(reason)"
        case .storage(let error):
            return error.description
        }
    }

    public var exitCode: Int32 {
        switch self {
        case .busy: return ExitStatus.busy
        default: return ExitStatus.fatal
        }
    }
}
