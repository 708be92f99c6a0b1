import Foundation
import Synchronization

/// Standard error shared by log lines and the progress bar: a log line clears the bar,
/// prints, and the bar is drawn again under it, so the two never interleave mid-line.
public final class Console: Sendable {
    /// The progress line drawn last, if any.
    private let progress = Mutex<String?>(nil)
    private let write: @Sendable (String) -> Void
    /// Standard error is a terminal: progress is drawn, and text logs leave out timestamps.
    public let isTerminal: Bool
    /// Standard error is systemd's journal (``JournalStream``): each log line starts with its
    /// priority, and the run's summary is one record there.
    public let isJournal: Bool

    /// - Parameter isJournal: `false` unless said: a console writing elsewhere than standard
    ///   error is not the journal. Commands pass ``JournalStream/isStandardError(environment:)``.
    public init(
        isTerminal: Bool = isatty(STDERR_FILENO) == 1, isJournal: Bool = false,
        write: @escaping @Sendable (String) -> Void = Console.standardError
    ) {
        self.isTerminal = isTerminal
        self.isJournal = isJournal
        self.write = write
    }

    public static let standardError: @Sendable (String) -> Void = { text in
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Writes whole lines (each ending in a newline).
    public func line(_ text: String) {
        progress.withLock { progress in
            if progress != nil { write("\r\u{1B}[K") }
            write(text.hasSuffix("\n") ? text : text + "\n")
            if let progress { write(progress) }
        }
    }

    /// Replaces the progress line (terminals only).
    public func showProgress(_ text: String) {
        guard isTerminal else { return }
        progress.withLock { progress in
            progress = text
            write("\r\u{1B}[K" + text)
        }
    }

    public func clearProgress() {
        progress.withLock { progress in
            if progress != nil { write("\r\u{1B}[K") }
            progress = nil
        }
    }
}
