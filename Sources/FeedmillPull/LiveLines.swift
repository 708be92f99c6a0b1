import FeedmillClient
import Foundation

/// `rss-pull --live`'s output: one line per update, written at once (a journal sees it when
/// it happens). A file sync that changed nothing is not a line; problems go to standard error.
enum LiveLines {
    static func write(_ update: LiveUpdate) {
        switch update {
        case .connected(let lastEventID):
            out("rss-pull: live: connected" + (lastEventID.map { ", resuming after generation \($0)" } ?? ""))
        case .patched(let feedID, let file, let version, let generation):
            out("rss-pull: live: \(file) patched to version \(version) (feed \(feedID), generation \(generation))")
        case .synced(let report, let reason):
            for problem in report.problems { err("rss-pull: not synced: \(problem.description)") }
            out(reason == "start" ? "rss-pull: " + report.summary : "rss-pull: live: files synced (\(reason)): " + report.summary)
        case .syncFailed(let error, let reason):
            err("rss-pull: live: files not synced (\(reason)): \(error.description)")
        case .disconnected(let reason, let retryIn):
            let seconds = Double(retryIn.components.seconds) + Double(retryIn.components.attoseconds) / 1e18
            err("rss-pull: live: stream ended (\(reason)); again in \(String(format: "%.1f", seconds)) s")
        }
    }

    private static func out(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    private static func err(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}
