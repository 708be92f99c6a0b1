import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM as a cancel: the sync in flight stops at its next step (a
/// transfer within libcurl's next progress check), leaves the folder consistent, and rss-pull
/// exits with its interrupted status. A second signal exits at once (the folder is still
/// consistent: every file is replaced by rename, and the next run removes any temporary).
final class InterruptTrap: @unchecked Sendable {
    // `@unchecked Sendable`: `sources` is set in init and only cancelled in deinit; `received`
    // is guarded by `lock`.
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var received: Int32?
    private var onSignal: [@Sendable () -> Void] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.receive(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// The first signal received, if any.
    var receivedSignal: Int32? { lock.withLock { received } }

    /// Runs `action` at the next signal (at once if one came already).
    func whenSignalled(_ action: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if received != nil { return true }
            onSignal.append(action)
            return false
        }
        if now { action() }
    }

    /// Sleeps `seconds`, or until a signal comes (looked at ten times a second).
    func sleep(seconds: Double) async {
        let end = ContinuousClock.now + .milliseconds(Int64(max(0, min(seconds, 31_536_000)) * 1000))
        while receivedSignal == nil, ContinuousClock.now < end {
            try? await Task.sleep(for: min(.milliseconds(100), end - ContinuousClock.now))
        }
    }

    private func receive(_ number: Int32) {
        let actions = lock.withLock { () -> [@Sendable () -> Void]? in
            guard received == nil else { return nil }
            received = number
            defer { onSignal = [] }
            return onSignal
        }
        guard let actions else { _exit(128 + number) }
        for action in actions { action() }
    }
}
