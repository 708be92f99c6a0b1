import FeedPublishing
import FeedStorage

/// One value an operator can set without rebuilding: on the command line (`--key`), in the
/// environment (`FEEDMILL_KEY`) or in the configuration file (`key = …`), in that order of
/// precedence, else its default.
public struct Setting: Sendable, Hashable {
    /// The long option name and the configuration file key.
    public let key: String
    public let environment: String?
    /// As the user would write it; `nil`: unset unless given.
    public let defaultValue: String?
    public let summary: String
    /// `false` for settings that only make sense per invocation (`--now`).
    public let inFile: Bool

    init(_ key: String, environment: String? = nil, default defaultValue: String?, inFile: Bool = true, _ summary: String) {
        self.key = key
        self.environment = environment ?? ("FEEDMILL_" + key.uppercased().replacingOccurrences(of: "-", with: "_"))
        self.defaultValue = defaultValue
        self.inFile = inFile
        self.summary = summary
    }

    public static func == (lhs: Setting, rhs: Setting) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

/// Every setting, documented once; `--help`, `--print-config` and docs/generated/settings.md use these.
///
/// The defaults of the fetching settings (`concurrency`, `per-host`, `timeout`, `max-size`,
/// `contact`, `stale-after`) are written out here rather than read from `FetchConfiguration`
/// and `PipelineConfiguration`, so that `rss-publish`, which reads these settings too, does
/// not link the fetcher and the parser; `SettingDefaultsTests` holds each to the library's own.
extension Setting {
    public static let dataDirectory = Setting("data-dir", default: DataDirectory.defaultPath, "Directory holding all_feeds.sqlite and the feed_<id>.sqlite files.")
    public static let concurrency = Setting("concurrency", default: "16", "Transfers in flight at most (1-256).")
    public static let perHost = Setting("per-host", default: "2", "Transfers in flight to one host at most.")
    public static let timeout = Setting(
        "timeout", default: "60", "Seconds one fetch may take, redirects included.")
    public static let maxSize = Setting(
        "max-size", default: "16", "Largest feed accepted, in MiB, after decompression (1-1024).")
    public static let contact = Setting(
        "contact", default: "https://github.com/feedmill/feedmill", "A URL where publishers can reach you, sent in the User-Agent.")
    public static let allowPrivateNetworks = Setting(
        "allow-private-networks", default: "false",
        "Fetch from loopback, private and link-local addresses (refused by default, against server-side request forgery).")
    public static let proxy = Setting(
        "proxy", default: nil,
        "Forward proxy for every fetch (http://host:port), or none; default: http_proxy, https_proxy, all_proxy and no_proxy from the environment.")
    public static let staleAfter = Setting("stale-after", default: "1h", "A feed is due when its last update is this old (90s, 15m, 1h, 2d).")
    public static let keepItems = Setting(
        "keep-items", default: nil, "Keep at most this many items per feed, newest first; items the feed still lists are always kept (default: all).")
    public static let keepDays = Setting(
        "keep-days", default: nil, "Keep items published within this many days; items the feed still lists are always kept (default: all).")
    public static let deadline = Setting(
        "deadline", default: nil, "Start no feed after this long (90s, 15m, 1h); feeds not started are left for the next run.")
    public static let logFormat = Setting(
        "log-format", default: LogLineHandler.Format.text.rawValue, "text (readable lines) or json (one object per line).")
    public static let metricsFile = Setting(
        "metrics-file", default: nil, "Write Prometheus text-format metrics here (node_exporter's textfile collector), atomically.")
    public static let feedList = Setting("opml", default: "feeds.opml", "The feed list: an OPML file path or http(s) URL.")
    public static let publishDirectory = Setting(
        "out", environment: "FEEDMILL_PUBLISH_DIR", default: PublishConfiguration().outputDirectory, "The publish directory.")
    public static let deltas = Setting(
        "deltas", default: String(PublishConfiguration().retainedVersions), "Earlier versions of each feed kept, each with a delta to the current one (0-50).")
    public static let siteURL = Setting("site-url", default: nil, "The URL the publish directory is served at, for atom.xml's links (ends with /).")
    public static let title = Setting("title", default: PublishConfiguration().title, "Title of atom.xml and index.html.")
    public static let now = Setting(
        "now", environment: "SOURCE_DATE_EPOCH", default: nil, inFile: false,
        "Seconds since 1970 to use as the current time everywhere (reproducible runs); default: the system clock.")

    public static let all: [Setting] = [
        dataDirectory, feedList, publishDirectory, concurrency, perHost, timeout, maxSize, contact, allowPrivateNetworks, proxy,
        staleAfter, keepItems, keepDays, deadline, deltas, siteURL, title, logFormat, metricsFile, now,
    ]

    /// The options given on the command line, by setting key, as typed: each is parsed once,
    /// by the setting's own rules, wherever its value comes from.
    public static func given(_ options: [(Setting, String?)]) -> [String: String] {
        Dictionary(options.compactMap { setting, text in text.map { (setting.key, $0) } }, uniquingKeysWith: { _, last in last })
    }

    /// `60.0` as `60`, `2.5` as `2.5`.
    public static func formatNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// How `--help` shows the setting's default and where else it can be set.
    public var helpSuffix: String {
        var parts: [String] = []
        parts.append("default: \(defaultValue ?? "none")")
        if let environment { parts.append("env \(environment)") }
        return " (" + parts.joined(separator: "; ") + ")"
    }
}
