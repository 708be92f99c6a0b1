/// What a feed says about how often it should be polled (RSS `ttl`, `skipHours`,
/// `skipDays`, `sy:updatePeriod`/`sy:updateFrequency`). Recorded as found; the
/// scheduler decides what to make of them within its own bounds.
public struct SchedulingHints: Sendable, Equatable {
    public var ttlMinutes: Int?
    /// Hours (0–23, GMT) in which the feed asks not to be read.
    public var skipHours: [Int]
    /// Day names (`Monday` …) on which the feed asks not to be read.
    public var skipDays: [String]
    /// `hourly`, `daily`, `weekly`, `monthly` or `yearly`.
    public var updatePeriod: String?
    public var updateFrequency: Int?

    public init(
        ttlMinutes: Int? = nil, skipHours: [Int] = [], skipDays: [String] = [],
        updatePeriod: String? = nil, updateFrequency: Int? = nil
    ) {
        self.ttlMinutes = ttlMinutes
        self.skipHours = skipHours
        self.skipDays = skipDays
        self.updatePeriod = updatePeriod
        self.updateFrequency = updateFrequency
    }

    public var isEmpty: Bool {
        ttlMinutes == nil && skipHours.isEmpty && skipDays.isEmpty && updatePeriod == nil && updateFrequency == nil
    }
}
