import Foundation

/// Says when the next sync is due under a ``SyncPolicy``: the app (or `rss-pull --every`) asks
/// it after each sync and sleeps until then; it decides nothing else and keeps no clock of its
/// own, so the same inputs always give the same answer (the jitter comes from `random`).
public struct SyncScheduler: Sendable {
    public let policy: SyncPolicy
    public let network: any NetworkPathSource
    /// A number in 0..<1 for the jitter (a test passes a fixed one).
    let random: @Sendable () -> Double

    public init(policy: SyncPolicy = SyncPolicy(), network: any NetworkPathSource = NetworkPaths.platformDefault(), random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.policy = policy
        self.network = network
        self.random = random
    }

    /// What the app knows of its past syncs.
    public struct History: Sendable, Equatable {
        /// When the last sync that ended without problems ended (nil: never).
        public var lastSuccess: Date?
        /// When the last sync ended, however it ended.
        public var lastAttempt: Date?
        /// Syncs that failed (or stopped at their deadline) since the last success.
        public var failuresInARow: Int

        public init(lastSuccess: Date? = nil, lastAttempt: Date? = nil, failuresInARow: Int = 0) {
            self.lastSuccess = lastSuccess
            self.lastAttempt = lastAttempt
            self.failuresInARow = failuresInARow
        }

        /// The history after a sync that ended at `end` with `report` (nil: it threw). A sync
        /// stopped at its deadline or with problems counts as a failure: the next is sooner.
        public func after(_ report: SyncReport?, at end: Date) -> History {
            after(succeeded: report.map { $0.problems.isEmpty && !$0.wasInterrupted } ?? false, at: end)
        }

        public func after(succeeded: Bool, at end: Date) -> History {
            History(lastSuccess: succeeded ? end : lastSuccess, lastAttempt: end, failuresInARow: succeeded ? 0 : failuresInARow + 1)
        }
    }

    public enum Decision: Sendable, Equatable {
        /// Sync now, stopping at `deadline` if one is given (the background budget).
        case now(deadline: Duration?)
        /// Not before this time.
        case at(Date)
        /// Not on this network (the reason in words); ask again when the network changes.
        case waitForNetwork(String)
    }

    public func decide(_ history: History, activity: AppActivity, now: Date) -> Decision {
        if let refusal = policy.refusal(of: network.current()) { return .waitForNetwork(refusal) }
        guard let due = nextDue(history, activity: activity), due > now else {
            return .now(deadline: activity == .background ? policy.backgroundBudget : nil)
        }
        return .at(due)
    }

    /// When the next sync is due; nil: at once (never synced).
    public func nextDue(_ history: History, activity: AppActivity) -> Date? {
        let interval = (activity == .inUse ? policy.inUseInterval : policy.backgroundInterval).inSeconds
        if history.failuresInARow > 0, let attempt = history.lastAttempt {
            let doubling = pow(2, Double(min(history.failuresInARow - 1, 30)))
            let wait = min(interval, policy.retryAfterFailure.inSeconds * doubling)
            return attempt.addingTimeInterval(jittered(wait))
        }
        guard let success = history.lastSuccess else { return nil }
        return success.addingTimeInterval(jittered(interval))
    }

    /// `seconds` ± 10 %.
    private func jittered(_ seconds: Double) -> Double {
        seconds * (0.9 + 0.2 * min(max(random(), 0), 1))
    }
}

extension Duration {
    /// Seconds as a Double (the client links no other Feedmill module, FeedModel's included).
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
