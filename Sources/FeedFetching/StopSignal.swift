import Foundation

/// A run-wide "stop now", raised from a signal handler (Ctrl-C, SIGTERM) and read by every
/// worker: the scheduler starts no new transfer, and transfers in flight are aborted within
/// about a second (libcurl's progress callback checks it), so a run stops in seconds rather
/// than after the slowest server.
public final class StopSignal: @unchecked Sendable, Equatable {
    // `@unchecked Sendable`: `signal` is only touched under `lock`.
    private let lock = NSLock()
    private var signal: Int32?

    public init() {}

    /// Records why the run stops; the first reason wins.
    public func raise(signal number: Int32) {
        lock.withLock { if signal == nil { signal = number } }
    }

    public var isRaised: Bool { lock.withLock { signal != nil } }

    /// The signal that stopped the run, if any.
    public var raisedBy: Int32? { lock.withLock { signal } }

    public static func == (lhs: StopSignal, rhs: StopSignal) -> Bool { lhs === rhs }
}
