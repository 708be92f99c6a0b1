/// Every setting, declared once each (in the files beside this one, by what they tune):
/// the options' `--help`, `--print-config`, feedmill.toml(5) and docs/generated/settings.md
/// are made from these declarations.
public enum Settings {
    public static let all: [any AnySetting] = [
        dataDirectory, feedList, publishDirectory, concurrency, perHost, timeout, maxSize, contact, allowPrivateNetworks, proxy,
        staleAfter, keepItems, keepDays, deadline, shard, deltas, siteURL, title, retireAfter, signingKey, logFormat, metricsFile, now, allowOtherUser,
        listen, publicURL, users,
    ]

    /// The settings of the commands that fetch.
    public static let fetch: [any AnySetting] = [timeout, maxSize, contact, allowPrivateNetworks, proxy]

    /// The settings of the commands that run the pipeline over a data directory.
    public static let pipeline: [any AnySetting] =
        [dataDirectory, concurrency, perHost, deadline, keepItems, keepDays, metricsFile] + fetch
}

/// Settings every command has.
extension Settings {
    public static let logFormat = Setting(
        "log-format", type: .choice, default: LogLineHandler.Format.text,
        valueName: LogLineHandler.Format.allCases.map(\.rawValue).joined(separator: "|"),
        "text (readable lines) or json (one object per line).")

    public static let now = Setting(
        "now", environment: "SOURCE_DATE_EPOCH", type: SettingType.epochSeconds.orUnset, default: nil, valueName: "unix-time", inFile: false,
        unsetMeans: "the system clock", "Seconds since 1970 to use as the current time everywhere (reproducible runs).")

    /// Per invocation only: a file that allowed it once would allow it for every run.
    public static let allowOtherUser = Setting(
        "allow-other-user", type: .flag, default: false, inFile: false,
        "Write into a data or output directory another user owns (refused by default: files written would not be writable by "
            + "the owner); as root, what is created there is given the directory's owner, group and mode.")

    public static let metricsFile = Setting(
        "metrics-file", type: SettingType.text.orUnset, default: nil, valueName: "path", unsetMeans: "none written",
        "Write Prometheus text-format metrics here (node_exporter's textfile collector), atomically.")
}

extension SettingType where Value == Int64 {
    /// The latest time `--now` may name: 9999-12-31T23:59:59Z, the last second a four-digit
    /// year can write. A clock past it is a typo or an attack, and stored as `last_update` it
    /// would sit in every feed's future.
    public static var latestEpochSecond: Int64 { 253_402_300_799 }

    /// Seconds since the epoch, from 1970 to the end of year 9999.
    static var epochSeconds: Self {
        let expected = "whole seconds since 1970-01-01 UTC, at most \(latestEpochSecond) (9999-12-31T23:59:59Z)"
        return Self(expected: expected, read: { Int64($0) }, problem: { (0...latestEpochSecond).contains($0) ? nil : expected }, write: { String($0) })
    }
}
