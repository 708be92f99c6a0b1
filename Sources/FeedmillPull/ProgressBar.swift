import FeedmillClient
import Foundation

/// `rss-pull`'s progress on a terminal: one line on standard error, redrawn at most ten times
/// a second, erased when the sync ends. Nothing when standard error is not a terminal (cron,
/// a pipe, a test): a scheduled run stays quiet.
final class ProgressBar: @unchecked Sendable {
    // `@unchecked Sendable`: every field is guarded by `lock` (the sync calls from its task).
    private let lock = NSLock()
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private var drawn = false
    private let width = 24

    static var isWanted: Bool { isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" }

    func show(_ progress: SyncProgress) {
        lock.withLock {
            let now = ContinuousClock.now
            guard now - lastDrawn >= .milliseconds(100) else { return }
            lastDrawn = now
            drawn = true
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + Self.line(progress, width: width)).utf8))
        }
    }

    func erase() {
        lock.withLock {
            guard drawn else { return }
            drawn = false
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        }
    }

    /// `[#########---------------] 12/30 feeds, 1.4 MB`
    static func line(_ progress: SyncProgress, width: Int) -> String {
        let filled = Int((progress.fraction ?? 0) * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let total = progress.filesTotal > 0 ? "\(progress.filesDone)/\(progress.filesTotal) feeds" : "reading the manifest"
        return "rss-pull [\(bar)] \(total), \(bytes(progress.bytesReceived))"
    }

    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1000: "\(count) B"
        case ..<1_000_000: String(format: "%.1f kB", Double(count) / 1000)
        default: String(format: "%.1f MB", Double(count) / 1_000_000)
        }
    }
}
