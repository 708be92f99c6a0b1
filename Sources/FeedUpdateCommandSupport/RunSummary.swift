import FeedBasics
import FeedCommandSupport
import FeedPipeline
import FeedStorage
import Foundation

/// The one-screen summary every run ends with, and the progress line shown on a terminal.
public enum RunSummary {
    public static func render(_ report: RunReport, command: String, dryRun: Bool = false) -> String {
        var lines: [String] = []
        let verb = dryRun ? "would update" : "updated"
        let command = report.shard.isAll ? command : "\(command) (shard \(report.shard.label))"
        lines.append(
            "\(command): \(report.tally.feeds) feed(s) in \(String(format: "%.1f", report.duration)) s: "
                + "\(report.updated + report.tally.wouldUpdate) \(verb), \(report.unchanged) unchanged, "
                + "\(report.failures.count) failed, \(report.gone) gone")
        let removed = report.removedItems > 0 ? ", \(report.removedItems) removed by retention" : ""
        lines.append("  items: \(report.newItems) new, \(report.changedItems) changed\(removed); fetched \(bytes(report.bytes))")
        if dryRun {
            for feed in report.notable {
                if case .wouldUpdate(let summary) = feed.outcome, summary.changed {
                    lines.append("  #\(feed.feedID) \(feed.url): would insert \(summary.inserted), update \(summary.updated)")
                }
            }
        }
        if !report.failures.isEmpty {
            lines.append("  failed (recorded; retried later with backoff):")
            for feed in report.failures {
                if case .failed(let kind, let message) = feed.outcome {
                    lines.append("    #\(feed.feedID) \(feed.url): \(message) [\(kind.rawValue)]")
                }
            }
        }
        for feed in report.notable where feed.movedTo != nil {
            lines.append("  moved: #\(feed.feedID) \(feed.url) -> \(feed.movedTo ?? "") (permanent redirects)")
        }
        switch report.stoppedBy {
        case .deadline?:
            lines.append("  deadline reached: \(report.leftForNextRun) feed(s) not started, left for the next run")
        case .signal(let number)?:
            lines.append("  interrupted by \(number == SIGTERM ? "SIGTERM" : "SIGINT"): \(report.leftForNextRun) feed(s) not finished, due next run")
        case nil:
            break
        }
        for feed in report.notable where !feed.notes.isEmpty {
            for note in feed.notes { lines.append("  note: #\(feed.feedID) \(feed.url): \(note)") }
        }
        for repair in report.catalogRepairs { lines.append("  catalog: \(repair)") }
        for feed in report.notable where feed.outcome == .gone {
            lines.append("  gone: #\(feed.feedID) \(feed.url) (HTTP 410; no longer fetched unless asked by --feed)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func render(_ imported: ImportResult, source: String) -> String {
        var lines = ["rss-create: \(source): \(imported.added.count) new feed(s), \(imported.kept) already known"]
        for url in imported.duplicates { lines.append("  duplicate in the list (imported once): \(url)") }
        if !imported.rejected.isEmpty { lines.append("  not imported: \(imported.rejected.count) outline(s), named above") }
        for failure in imported.removalFailures { lines.append("  could not remove: \(failure)") }
        for feed in imported.missing {
            lines.append("  not in the list any more\(imported.pruned ? ", removed" : ", kept (use --prune to remove)"): #\(feed.feedID) \(feed.url)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public static func render(_ rebuilt: RebuildReport) -> String {
        var lines = ["rss-create: catalog rebuilt: \(rebuilt.adopted.count) feed(s) listed again under their own feedids"]
        for feed in rebuilt.adopted { lines.append("  #\(feed.feedID) \(feed.url)") }
        for problem in rebuilt.unrecoverable { lines.append("  not listed (left in place, feedid reserved): \(problem)") }
        for path in rebuilt.setAside { lines.append("  set aside: \(path)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func bytes(_ count: Int) -> String {
        if count >= 1 << 20 { return String(format: "%.1f MiB", Double(count) / Double(1 << 20)) }
        if count >= 1 << 10 { return String(format: "%.1f KiB", Double(count) / Double(1 << 10)) }
        return "\(count) B"
    }
}
