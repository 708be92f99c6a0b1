import FeedBasics

/// Which forward proxy, if any, a request goes through: `http_proxy` / `https_proxy` /
/// `all_proxy` / `no_proxy` as libcurl users expect (lower case `http_proxy` only, as libcurl
/// reads it, so a CGI-set `HTTP_PROXY` header cannot redirect traffic), or one proxy given
/// with `--proxy`. Decided by Feedmill for each hop, not left to libcurl, because the
/// private-network guard must know whether a connection goes to the origin or to the proxy.
public struct ProxyRoute: Sendable, Equatable {
    public var httpProxy: String?
    public var httpsProxy: String?
    /// Hosts reached directly: `example.com` matches it and its subdomains, `.example.com`
    /// the same, `*` every host; an IP address matches itself.
    public var noProxy: [String]

    public init(httpProxy: String? = nil, httpsProxy: String? = nil, noProxy: [String] = []) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
    }

    public static let direct = ProxyRoute()

    /// The proxies the environment names, as libcurl would read them: a value without a
    /// scheme is an `http://` proxy, as libcurl and the curl tool take it (`proxy.lan:3128`
    /// is a common way to write `http_proxy`). Each is then held to ``ProxyURL``'s rule,
    /// the one `--proxy` follows.
    /// - Throws: the first variable whose value is not a proxy URL.
    public static func fromEnvironment(_ environment: [String: String]) throws(EnvironmentVariableError) -> ProxyRoute {
        let all = try proxy(environment, "all_proxy", "ALL_PROXY")
        return ProxyRoute(
            httpProxy: try proxy(environment, "http_proxy") ?? all, httpsProxy: try proxy(environment, "https_proxy", "HTTPS_PROXY") ?? all,
            noProxy: noProxy(environment))
    }

    /// One proxy for both schemes (`--proxy`), still skipping the `no_proxy` hosts.
    public static func explicit(_ proxy: String, environment: [String: String]) -> ProxyRoute {
        ProxyRoute(httpProxy: proxy, httpsProxy: proxy, noProxy: noProxy(environment))
    }

    /// The first of `names` set to something non-empty, checked, with `http://` added when it has no scheme.
    private static func proxy(_ environment: [String: String], _ names: String...) throws(EnvironmentVariableError) -> String? {
        guard let name = names.first(where: { !(environment[$0] ?? "").isEmpty }), let value = environment[name] else { return nil }
        let url = value.contains("://") ? value : "http://" + value
        if let problem = ProxyURL.problem(url) {
            throw EnvironmentVariableError(
                variable: name, shownValue: ProxyURL.withoutCredentials(value),
                problem: "expected a proxy URL (http://host:port, socks5h://host:port): \(problem); correct or unset it, or give --proxy")
        }
        return url
    }

    /// The first of `names` set to something non-empty.
    private static func value(_ environment: [String: String], _ names: String...) -> String? {
        names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    }

    private static func noProxy(_ environment: [String: String]) -> [String] {
        (value(environment, "no_proxy", "NO_PROXY") ?? "").split(separator: ",")
            .map { $0.trimmingASCIIWhitespace().lowercased() }.filter { !$0.isEmpty }
    }

    /// The proxy for `url`, or `nil` to connect directly.
    public func proxy(for url: String) -> String? {
        let lowered = url.lowercased()
        let proxy = lowered.hasPrefix("https:") ? httpsProxy : (lowered.hasPrefix("http:") ? httpProxy : nil)
        guard let proxy, let host = URLHost.of(url) else { return nil }
        for entry in noProxy {
            if entry == "*" { return nil }
            let name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == name || host.hasSuffix("." + name) { return nil }
        }
        return proxy
    }
}
