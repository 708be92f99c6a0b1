import FeedCommandSupport
import FeedPublishing
import Foundation

/// rss-publish's end-of-run summary, as lines for a person and as one journal record
/// (``SummaryRecord``) with the counts as fields.
public enum PublishSummary {
    /// - Parameter shard: `K/N` under `--shard`, else `nil`.
    public static func record(_ report: PublishReport, shard: String?, outputDirectory: String) -> SummaryRecord {
        var fields: [String: String] = [
            "generation": "\(report.generation)", "feeds_written": "\(report.feedsWritten)", "feeds_unchanged": "\(report.feedsUnchanged)",
            "feeds_failed": "\(report.failures.count)", "deltas_written": "\(report.deltasWritten)",
            "pointers_written": "\(report.pointersWritten)", "files_written": "\(report.filesWritten)",
            "bytes_written": "\(report.bytesWritten)", "files_removed": "\(report.filesRemoved)",
            "warnings": "\(report.warnings.count)", "duration": String(format: "%.3f", report.duration),
        ]
        if let shard { fields["shard"] = shard }
        // A notice; a warning when feeds could not be published or were published otherwise.
        let warning = !report.complete
        if report.unchanged {
            let line = "rss-publish: nothing changed since generation \(report.generation); nothing written"
            return SummaryRecord(text: line + "\n", line: line, level: warning ? .warning : .notice, fields: fields)
        }
        let first =
            "rss-publish: \(shard.map { "shard \($0) " } ?? "")generation \(report.generation) in \(String(format: "%.2f", report.duration)) s: "
            + "\(report.feedsWritten) feed database(s) written, \(report.feedsUnchanged) unchanged, "
            + "\(report.deltasWritten) delta(s), \(report.pointersWritten) pointer(s); \(report.filesWritten) files, \(report.bytesWritten) bytes; "
            + "\(report.filesRemoved) old file(s) removed"
        let second = "clients read \(outputDirectory)/manifest.json; people read \(outputDirectory)/index.html"
        return SummaryRecord(text: first + "\n  " + second + "\n", line: first + "; " + second, level: warning ? .warning : .notice, fields: fields)
    }
}
