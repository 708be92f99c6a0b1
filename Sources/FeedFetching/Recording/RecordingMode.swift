/// Whether fetches go to the network and are written down (`record`), or are answered from
/// what was written down with no network at all (`replay`).
///
/// A recording holds each response as the server sent it (status, the headers Feedmill reads,
/// the decoded body), not what Feedmill made of it, so a replay after a parser or
/// normaliser change parses the same bytes again with the new code.
public enum RecordingMode: Sendable, Equatable {
    case record(directory: String)
    case replay(directory: String)

    public var directory: String {
        switch self {
        case .record(let directory), .replay(let directory): return directory
        }
    }
}
