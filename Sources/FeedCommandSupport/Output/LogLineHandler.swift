import Foundation
import Logging

/// swift-log handler for Feedmill's commands: readable lines, or one JSON object per line.
///
/// Text: `rss-update: failed: HTTP status 404 duration=0.210 feedid=42 status=404 url=…`, the
/// Unix `command: message` form with `key=value` metadata; no timestamp, because cron mail
/// and journald add their own; `warning:` or `critical:` before the message at those levels.
/// JSON: `{"time":…,"level":…,"command":…,"message":…, <metadata>}` with keys sorted and
/// numbers as numbers, so a log shipper needs no parsing rules. When standard error is the
/// journal, each line starts with its sd-daemon priority (`<3>` for an error, ``JournalStream``).
public struct LogLineHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public var metadataProvider: Logger.MetadataProvider?
    let command: String
    let format: Format
    let console: Console
    let clock: @Sendable () -> Date

    public init(command: String, format: Format, level: Logger.Level, console: Console, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.command = command
        self.format = format
        self.logLevel = level
        self.console = console
        self.clock = clock
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let line = render(level: event.level, message: "\(event.message)", metadata: merged)
        console.line(console.isJournal ? JournalStream.prefixed(line, level: event.level) : line)
    }

    func render(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        switch format {
        case .text:
            var line = "\(command): "
            if level == .warning || level == .critical { line += "\(level): " }
            line += message
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
                line += " \(key)=\(Self.text(value))"
            }
            return line
        case .json:
            var object: [String: Any] = ["time": Self.timestamp(clock()), "level": level.rawValue, "command": command, "message": message]
            for (key, value) in metadata { object[key] = Self.json(value) }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// A value that parses as a number is written as one.
    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text):
            if let integer = Int64(text) { return integer }
            if let number = Double(text), text.contains("."), number.isFinite { return number }
            return text
        case .stringConvertible(let convertible):
            return json(.string(convertible.description))
        case .array(let values):
            return values.map(json)
        case .dictionary(let values):
            return values.mapValues(json)
        }
    }

    private static func text(_ value: Logger.Metadata.Value) -> String {
        let plain = "\(value)"
        return plain.contains(" ") || plain.isEmpty ? "\"\(plain)\"" : plain
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
