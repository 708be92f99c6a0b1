import Dispatch
import FeedFetching
import Foundation

/// Turns SIGINT and SIGTERM into a raised ``StopSignal``: the run starts no new feed, aborts
/// transfers in flight, commits or rolls back each feed's write, prints its summary and exits
/// 130 or 143. A second signal exits at once.
public final class SignalTrap: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is a `let`, but Dispatch on Linux does not
    // declare `DispatchSourceSignal` Sendable (Swift 6.x). The sources are made in init and
    // touched again only by deinit, which cancels them (`cancel` is thread-safe).
    public let stop = StopSignal()
    private let sources: [DispatchSourceSignal]

    public init(onStop: @escaping @Sendable (Int32) -> Void = { _ in }) {
        let stop = stop
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRaised { _exit(128 + number) }
                stop.raise(signal: number)
                onStop(number)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
