import FeedBasics
import FeedCommandSupport
import FeedPipeline
import FeedStorage
import Foundation
import Logging

/// The one-screen summary every run ends with, and the progress line shown on a terminal.
public enum RunSummary {
    public static func render(_ report: RunReport, command: String, dryRun: Bool = false) -> String {
        var lines = [headline(report, command: command, dryRun: dryRun), "  " + items(report)]
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
        if let stop = stopLine(report) { lines.append("  " + stop) }
        for feed in report.notable where !feed.notes.isEmpty {
            for note in feed.notes { lines.append("  note: #\(feed.feedID) \(feed.url): \(note)") }
        }
        for repair in report.catalogRepairs { lines.append("  catalog: \(repair)") }
        for feed in report.notable where feed.outcome == .gone {
            lines.append("  gone: #\(feed.feedID) \(feed.url) (HTTP 410; no longer fetched unless asked by --feed)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The summary as a record (``SummaryRecord``): the lines of ``render(_:command:dryRun:)``,
    /// and for the journal one line (the first, the items, why the run stopped; failed feeds
    /// are logged one by one as errors) and the counts as fields, which add up: `feeds` =
    /// `updated` + `would_update` + `unchanged` + `failed` + `gone` + `interrupted` + `not_started`.
    public static func record(_ report: RunReport, command: String, dryRun: Bool = false) -> SummaryRecord {
        var line = headline(report, command: command, dryRun: dryRun) + "; " + items(report)
        if let stop = stopLine(report) { line += "; " + stop }
        var fields: [String: String] = [
            "feeds": "\(report.selected)", "finished": "\(report.finished)",
            "updated": "\(report.updated)", "unchanged": "\(report.unchanged)", "failed": "\(report.tally.failed)",
            "gone": "\(report.gone)", "interrupted": "\(report.tally.interrupted)", "not_started": "\(report.notStarted.count)",
            "moved": "\(report.tally.moved)", "items_new": "\(report.newItems)", "items_changed": "\(report.changedItems)",
            "items_removed": "\(report.removedItems)", "fetched_bytes": "\(report.bytes)",
            "duration": String(format: "%.3f", report.duration),
        ]
        if dryRun { fields["would_update"] = "\(report.tally.wouldUpdate)" }
        switch report.stoppedBy {
        case .deadline?: fields["stopped_by"] = "deadline"
        case .signal(let number)?: fields["stopped_by"] = signalName(number)
        case nil: break
        }
        if !report.shard.isAll { fields["shard"] = report.shard.label }
        var stopped = false
        if case .signal = report.stoppedBy { stopped = true }
        let level: Logger.Level = report.tally.failed > 0 || stopped ? .warning : .notice
        return SummaryRecord(text: render(report, command: command, dryRun: dryRun), line: line, level: level, fields: fields)
    }

    /// The first line. Each selected feed is counted once: when the run was stopped, the
    /// feeds that finished, then (``stopLine(_:)``) those left for the next run, aborted in
    /// flight or never started, which add up to the selection.
    static func headline(_ report: RunReport, command: String, dryRun: Bool) -> String {
        let verb = dryRun ? "would update" : "updated"
        let command = report.shard.isAll ? command : "\(command) (shard \(report.shard.label))"
        let feeds = report.stoppedBy == nil ? "\(report.tally.feeds) feed(s)" : "\(report.finished) of \(report.selected) feed(s) finished"
        return "\(command): \(feeds) in \(String(format: "%.1f", report.duration)) s: "
            + "\(report.updated + report.tally.wouldUpdate) \(verb), \(report.unchanged) unchanged, "
            + "\(report.failures.count) failed, \(report.gone) gone"
    }

    static func items(_ report: RunReport) -> String {
        let removed = report.removedItems > 0 ? ", \(report.removedItems) removed by retention" : ""
        return "items: \(report.newItems) new, \(report.changedItems) changed\(removed); fetched \(bytes(report.bytes))"
    }

    /// Why the run stopped early and what it left, or `nil`.
    static func stopLine(_ report: RunReport) -> String? {
        switch report.stoppedBy {
        case .deadline?:
            return "deadline reached: \(report.leftForNextRun) feed(s) not started, left for the next run"
        case .signal(let number)?:
            return "interrupted by \(signalName(number)): \(report.leftForNextRun) feed(s) not finished, due next run "
                + "(\(report.tally.interrupted) aborted in flight, \(report.notStarted.count) not started)"
        case nil:
            return nil
        }
    }

    static func signalName(_ number: Int32) -> String { number == SIGTERM ? "SIGTERM" : "SIGINT" }

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

    /// rss-create's summary as one record: the import's lines, then the update's; on one
    /// line for the journal, with the import's counts among the fields.
    public static func record(_ imported: ImportResult, source: String, update: RunReport) -> SummaryRecord {
        var record = record(update, command: "rss-create")
        record.text = render(imported, source: source) + record.text
        let importLine = "\(source): \(imported.added.count) new feed(s), \(imported.kept) already known"
        record.line = "rss-create: " + importLine + "; " + record.line.dropFirst("rss-create: ".count)
        record.fields["feeds_new"] = "\(imported.added.count)"
        record.fields["feeds_known"] = "\(imported.kept)"
        record.fields["feeds_rejected"] = "\(imported.rejected.count)"
        record.fields["feeds_missing"] = "\(imported.missing.count)"
        if !imported.rejected.isEmpty || !imported.removalFailures.isEmpty { record.level = .warning }
        return record
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
