import FeedBasics
import FeedCommandSupport
import FeedPipeline
import Foundation
import Synchronization

/// `[#########·········]  412/1000  3 failed  38.2 feeds/s  ~15 s left` on a terminal;
/// nothing otherwise (the console draws only on a terminal). Workers report in whatever order
/// they finish, so a count lower than one already drawn is not drawn: the bar never goes back.
public final class ProgressBar: Sendable {
    /// Feeds failed so far, and the highest count drawn.
    private let counts = Mutex((failed: 0, shown: 0))
    private let console: Console
    private let enabled: Bool
    private let start = ContinuousClock.now

    public init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled && console.isTerminal
    }

    public func update(_ feed: FeedReport, done: Int, total: Int) {
        guard enabled else { return }
        counts.withLock { counts in
            if case .failed = feed.outcome { counts.failed += 1 }
            counts.shown = max(counts.shown, done)
            if counts.shown >= total {
                console.clearProgress()
            } else {
                // Drawn under the lock, so two workers' lines are drawn in the order counted.
                console.showProgress(
                    Self.render(done: counts.shown, total: total, failed: counts.failed, elapsed: (ContinuousClock.now - start).inSeconds))
            }
        }
    }

    public static func render(done: Int, total: Int, failed: Int, elapsed: Double, width: Int = 24) -> String {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var text = "[\(bar)] \(done)/\(total)  \(failed) failed  \(String(format: "%.1f", rate)) feeds/s"
        if rate > 0, done < total {
            text += "  ~\(Int(saturating: (Double(total - done) / rate).rounded(.up))) s left"
        }
        return text
    }
}
