import Foundation

/// `--users FILE` (with `--data-dir`): reading state shared between a user's devices at
/// `/v1/state`.
public struct ReadingStateSettings: Sendable {
    /// `NAME SHA256-HEX-OF-TOKEN` per line (``UserTokens``).
    public var usersFile: String
    /// Where `reading-state.sqlite` is kept.
    public var dataDirectory: String
    /// Requests a user may make at once, then one per `interval`; an address without a valid
    /// token gets the same burst, then one per six intervals.
    public var burst = 30
    public var interval: Duration = .seconds(1)
    /// Unix seconds now: marks from a clock ahead of it are taken as set now.
    public var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    public init(usersFile: String, dataDirectory: String) {
        self.usersFile = usersFile
        self.dataDirectory = dataDirectory
    }
}

/// Why rss-serve cannot start with the settings it was given (exit 64).
public struct ServeSettingError: Error, CustomStringConvertible {
    public let description: String
}
