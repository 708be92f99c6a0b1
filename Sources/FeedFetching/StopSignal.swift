import Synchronization

/// A run-wide "stop now", raised from a signal handler (Ctrl-C, SIGTERM) and read by every
/// worker: the scheduler starts no new transfer, and transfers in flight are aborted within
/// about a second (libcurl's progress callback checks it), so a run stops in seconds rather
/// than after the slowest server.
public final class StopSignal: Sendable, Equatable {
    private let signal = Mutex<Int32?>(nil)

    public init() {}

    /// Records why the run stops; the first reason wins.
    public func raise(signal number: Int32) {
        signal.withLock { signal in
            if signal == nil { signal = number }
        }
    }

    public var isRaised: Bool { signal.withLock { $0 != nil } }

    /// The signal that stopped the run, if any.
    public var raisedBy: Int32? { signal.withLock { $0 } }

    public static func == (lhs: StopSignal, rhs: StopSignal) -> Bool { lhs === rhs }
}
