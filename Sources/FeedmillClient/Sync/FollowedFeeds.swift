/// Which feeds an app keeps in its folder. The catalog is always synced: it is how the app
/// lists what it may follow.
public enum FollowedFeeds: Sendable, Equatable {
    /// Every feed the manifest publishes.
    case all
    /// These feedids only; a followed feed the manifest does not publish (not yet, or failing)
    /// has no file, and a feed no longer followed has its file removed.
    case only(Set<Int64>)

    func includes(_ feedID: Int64) -> Bool {
        switch self {
        case .all: true
        case .only(let ids): ids.contains(feedID)
        }
    }
}
