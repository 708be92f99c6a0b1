import Foundation

/// How often and how long a request to object storage is tried again after a failure worth
/// retrying (``ObjectStorageError/isTransient``: the network, 429, 5xx). Pauses grow
/// exponentially and are drawn whole from `0...cap` ("full jitter"), so that many publishers
/// refused together by a throttled server do not all come back at the same instant.
///
/// Never retried: any other 4xx (a wrong key stays wrong), and a conditional write refused
/// with 412 (another writer won: trying again cannot change that).
public struct RetryPolicy: Sendable, Equatable {
    /// Tries in all, the first included; at least 1.
    public var maxAttempts: Int
    /// The cap of the first pause; each later cap doubles, up to ``maxDelay``.
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// No new try starts later than this after the first began: a publication waiting on a
    /// dead endpoint gives up in bounded time whatever the number of tries left.
    public var deadline: Duration

    public init(maxAttempts: Int, baseDelay: Duration, maxDelay: Duration, deadline: Duration) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.deadline = deadline
    }

    /// Six tries over at most a minute: rides out a server restart or a burst of throttling,
    /// and an unreachable endpoint is reported within about 20 s.
    public static let standard = RetryPolicy(maxAttempts: 6, baseDelay: .milliseconds(200), maxDelay: .seconds(8), deadline: .seconds(60))

    /// One try: for the lock's release on the way out, where waiting helps nobody.
    public static let once = RetryPolicy(maxAttempts: 1, baseDelay: .zero, maxDelay: .zero, deadline: .zero)

    /// The pause before try `attempt + 1` (after `attempt` failed tries, 1-based): uniform in
    /// `0...min(maxDelay, baseDelay * 2^(attempt-1))`.
    public func pause<Random: RandomNumberGenerator>(after attempt: Int, using random: inout Random) -> Duration {
        let base = Double(baseDelay.components.seconds) + Double(baseDelay.components.attoseconds) / 1e18
        let most = Double(maxDelay.components.seconds) + Double(maxDelay.components.attoseconds) / 1e18
        let cap = min(most, base * pow(2, Double(min(attempt - 1, 40))))
        guard cap > 0 else { return .zero }
        return .milliseconds(Int64(Double.random(in: 0...cap, using: &random) * 1000))
    }

    /// Runs `operation`, trying again after transient failures as this policy allows; the
    /// last failure is thrown. `onRetry` hears of each retry (for logs and tests).
    public func run<Result>(
        _ operation: () throws(ObjectStorageError) -> Result, onRetry: (ObjectStorageError, Int, Duration) -> Void = { _, _, _ in }
    ) throws(ObjectStorageError) -> Result {
        let started = ContinuousClock.now
        var random = SystemRandomNumberGenerator()
        var attempt = 1
        while true {
            do throws(ObjectStorageError) {
                return try operation()
            } catch {
                guard error.isTransient, attempt < maxAttempts else { throw error }
                let pause = pause(after: attempt, using: &random)
                guard ContinuousClock.now + pause < started + deadline else { throw error }
                onRetry(error, attempt, pause)
                if pause > .zero { Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18) }
                attempt += 1
            }
        }
    }
}
