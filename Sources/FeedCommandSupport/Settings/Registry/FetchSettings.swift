import FeedFetching

/// Settings of the commands that fetch (rss-create, rss-update, rss-inspect).
extension Settings {
    public static let timeout = Setting(
        "timeout", type: .positiveNumber, default: FetchConfiguration.default.totalTimeout, valueName: "seconds",
        "Seconds one fetch may take, redirects included.")

    public static let maxSize = Setting(
        "max-size", type: .wholeNumber(in: 1...1024), default: FetchConfiguration.default.maxBodyBytes >> 20, valueName: "mib",
        "Largest feed accepted, in MiB, after decompression (1-1024).")

    public static let contact = Setting(
        "contact", type: .text("an http(s) or mailto: URL") { ["http://", "https://", "mailto:"].contains(where: $0.hasPrefix) },
        default: FetchConfiguration.defaultContactURL, valueName: "url", "A URL where publishers can reach you, sent in the User-Agent.")

    public static let allowPrivateNetworks = Setting(
        "allow-private-networks", type: .flag, default: false,
        "Fetch from loopback, private and link-local addresses (refused by default, against server-side request forgery).")

    /// `none` (or empty) fetches directly; unset, the environment's proxy variables apply.
    public static let proxy = Setting(
        "proxy", type: SettingType.proxy.orUnset, default: nil, valueName: "url|none",
        "Forward proxy for every fetch (http://host:port), or none; default: http_proxy, https_proxy, all_proxy and no_proxy from the environment.")
}

extension SettingType where Value == String {
    static var proxy: Self {
        let expected = "a proxy URL (http://host:port, socks5h://host:port) or none"
        return Self(
            expected: expected, read: { $0 },
            problem: { text in
                guard text != "none", !text.isEmpty, let problem = ProxyURL.problem(text) else { return nil }
                return expected + ": " + problem
            },
            write: { $0 })
    }
}
