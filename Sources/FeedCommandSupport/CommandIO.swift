import Foundation

/// Standard error as a TextOutputStream, for the executables' one-line failures.
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

/// Prints `command: message` on stderr; as an error record (`<3>`) when stderr is the journal.
public func reportFailure(_ command: String, _ message: String, journal: Bool = JournalStream.isStandardError()) {
    var standardError = StandardError()
    let line = "\(command): \(message)"
    print(journal ? JournalStream.prefixed(line, level: .error) : line, to: &standardError)
}
