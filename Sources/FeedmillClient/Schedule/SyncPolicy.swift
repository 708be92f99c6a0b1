/// When an app syncs, as the design Feedmill follows gives it for its mobile reader: only on
/// networks the user allows, every few minutes while the app shows data, once a day in the
/// background, and within the time a mobile OS grants a background task. A value: an app keeps
/// it in its settings and hands it to a ``SyncScheduler``.
public struct SyncPolicy: Sendable, Equatable {
    /// Between two syncs while the app is in use (default 5 minutes).
    public var inUseInterval: Duration
    /// Between two syncs in the background (default 24 hours).
    public var backgroundInterval: Duration
    /// How long a background sync may run (default 30 s, what iOS grants a background task):
    /// the deadline handed to ``PublicationSync/run(deadline:progress:)``. A foreground sync
    /// has none: the user sees its progress and may cancel it.
    public var backgroundBudget: Duration
    /// Sync over an expensive network (cellular, a phone's hotspot). Default: yes.
    public var allowsExpensive: Bool
    /// Sync over a constrained network (the user's Low Data Mode). Default: no.
    public var allowsConstrained: Bool
    /// The first wait after a failed sync; it doubles with each failure in a row, up to the
    /// interval (default 30 s), each wait with ±10 % jitter so a fleet of devices that failed
    /// together does not come back together.
    public var retryAfterFailure: Duration

    public init(
        inUseInterval: Duration = .seconds(300), backgroundInterval: Duration = .seconds(86_400), backgroundBudget: Duration = .seconds(30),
        allowsExpensive: Bool = true, allowsConstrained: Bool = false, retryAfterFailure: Duration = .seconds(30)
    ) {
        self.inUseInterval = inUseInterval
        self.backgroundInterval = backgroundInterval
        self.backgroundBudget = backgroundBudget
        self.allowsExpensive = allowsExpensive
        self.allowsConstrained = allowsConstrained
        self.retryAfterFailure = retryAfterFailure
    }

    /// Whether a sync may use `path`; nil when it may, else why not (for the app's status line).
    public func refusal(of path: NetworkPath) -> String? {
        if !path.isAvailable { return "no network" }
        if path.isConstrained && !allowsConstrained { return "the network is constrained (Low Data Mode) and the policy does not allow it" }
        if path.isExpensive && !allowsExpensive { return "the network is expensive (cellular, hotspot) and the policy does not allow it" }
        return nil
    }
}

/// Whether the app is on screen: it decides the interval and whether a sync has a budget.
public enum AppActivity: String, Sendable, Equatable {
    case inUse = "in-use"
    case background
}
