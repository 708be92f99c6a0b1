/// Settings of the commands that fetch (rss-create, rss-update, rss-inspect).
///
/// Their defaults are written out rather than read from `FetchConfiguration`, so that
/// rss-publish, which reads these settings too (a file may set them), does not link the
/// fetcher; `SettingDefaultsTests` holds each to the library's own.
extension Settings {
    public static let timeout = Setting(
        "timeout", type: .positiveNumber(atMost: 86_400), default: 60, valueName: "seconds",
        "Seconds one fetch may take, redirects included (at most a day).")

    public static let maxSize = Setting(
        "max-size", type: .wholeNumber(in: 1...1024), default: 16, valueName: "mib",
        "Largest feed accepted, in MiB, after decompression (1-1024).")

    public static let contact = Setting(
        "contact", type: .text("an http(s) or mailto: URL") { ["http://", "https://", "mailto:"].contains(where: $0.hasPrefix) },
        default: "https://github.com/feedmill/feedmill", valueName: "url", "A URL where publishers can reach you, sent in the User-Agent.")

    public static let allowPrivateNetworks = Setting(
        "allow-private-networks", type: .flag, default: false,
        "Fetch from loopback, private and link-local addresses, which are otherwise refused (against server-side request forgery).")

    /// `none` (or empty) fetches directly; unset, the environment's proxy variables apply. The
    /// URL is checked by the commands that fetch (`ProxyURL`, in the fetcher).
    public static let proxy = Setting(
        "proxy", type: SettingType.text("a proxy URL (http://host:port, socks5h://host:port) or none") { _ in true }.orUnset,
        default: nil, valueName: "url|none", unsetMeans: "http_proxy, https_proxy, all_proxy and no_proxy from the environment",
        "Forward proxy for every fetch (http://host:port), or none to fetch directly.")
}
