import Logging

/// The summary a run ends with, in the two shapes it is written in: the lines a person reads
/// on a terminal or in cron mail (standard output), and, when standard error is the journal,
/// one record: one line of text, or one JSON object with `"event":"summary"` and the counts
/// as fields (``CommandContext/summary(_:eventful:)``).
public struct SummaryRecord: Sendable {
    /// The lines of standard output, each ending in a newline.
    public var text: String
    /// The whole summary on one line, for the journal's text format.
    public var line: String
    /// The journal priority: a notice, a warning when feeds failed or the run was stopped.
    public var level: Logger.Level
    /// The counts, for the journal's JSON format (written as numbers when they read as numbers).
    public var fields: [String: String]

    public init(text: String, line: String, level: Logger.Level = .notice, fields: [String: String] = [:]) {
        self.text = text
        self.line = line
        self.level = level
        self.fields = fields
    }

    /// A summary that is only text: its lines joined by `; ` make the one line.
    public init(text: String) {
        let lines = text.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
        self.init(text: text, line: lines.joined(separator: "; "))
    }
}
