import Foundation

enum Environment {
    /// Whether the variable is set to anything but empty or "0".
    static func flag(_ name: String) -> Bool {
        guard let value = ProcessInfo.processInfo.environment[name] else { return false }
        return !value.isEmpty && value != "0"
    }
}
