import Foundation
import Logging

/// systemd's journal as standard error, and the priority prefixes it reads.
///
/// systemd sets `JOURNAL_STREAM` to `device:inode` of the stream it connected to the journal;
/// standard error is the journal when its own `fstat` gives the same pair (a shell started
/// from the unit, whose standard error was redirected, inherits the variable but not the
/// stream). A line written there that starts with `<N>` (sd-daemon's `SD_ERR` … `SD_DEBUG`)
/// is stored with priority N and without the prefix, so `journalctl -p err` finds failures.
///
/// The native journal protocol (datagrams to `/run/systemd/journal/socket`) is not used: it
/// would need a second output path beside the stream, lose the order of log lines relative
/// to what the process writes to the stream, and add nothing a JSON line does not carry; the
/// stream with prefixes is what systemd documents for services that log to standard error.
public enum JournalStream {
    /// Whether standard error is the journal's stream named by `JOURNAL_STREAM`.
    public static func isStandardError(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// The sd-daemon prefix of a log level: `<3>` error, `<4>` warning, `<5>` notice,
    /// `<6>` info, `<7>` debug and trace; `<2>` critical.
    public static func prefix(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "<7>"
        case .info: "<6>"
        case .notice: "<5>"
        case .warning: "<4>"
        case .error: "<3>"
        case .critical: "<2>"
        }
    }

    /// `text` with the level's prefix at the start of every line, so that a message of several
    /// lines keeps its priority in each of the journal's records.
    public static func prefixed(_ text: String, level: Logger.Level) -> String {
        let prefix = prefix(level)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }
}
