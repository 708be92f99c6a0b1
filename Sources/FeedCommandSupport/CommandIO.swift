import Foundation

/// Standard error as a TextOutputStream, for the executables' one-line failures.
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

/// Prints `command: message` on stderr.
public func reportFailure(_ command: String, _ message: String) {
    var standardError = StandardError()
    print("\(command): \(message)", to: &standardError)
}
