/// The one rule for a forward proxy's URL, whether it comes from `--proxy` or from the
/// environment: checked when a command starts, so that a mistyped proxy stops the command
/// with a usage error instead of failing every feed with a message about DNS.
public enum ProxyURL {
    /// The schemes libcurl 7.88 can use to reach a proxy.
    public static let schemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// What is wrong with `url` as a proxy URL (`scheme://[user:password@]host[:port][/]`), or
    /// `nil` when libcurl can use it.
    public static func problem(_ url: String) -> String? {
        if let bad = url.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return bad == " " ? "it contains a space" : "it contains a control character"
        }
        guard let separator = url.range(of: "://") else { return "it has no scheme (http://, socks5h:// …)" }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard schemes.contains(scheme) else { return "\"\(scheme)\" is not a proxy scheme (http, https, socks4, socks4a, socks5, socks5h)" }
        var authority = url[separator.upperBound...].prefix { $0 != "/" }
        let rest = url[separator.upperBound...].dropFirst(authority.count)
        guard rest.isEmpty || rest == "/" else { return "a proxy URL has no path" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]"), close > authority.index(after: authority.startIndex) else {
                return "its IPv6 address has no closing ]"
            }
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return "unexpected text after its IPv6 address" }
            port = after.isEmpty ? nil : after.dropFirst()
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let host = parts.first, !host.isEmpty else { return "it names no host" }
            guard !host.contains(where: { "?#[]%,;".contains($0) }) else { return "\"\(host)\" is not a host name" }
            port = parts.count == 2 ? parts[1] : nil
        }
        if let port {
            guard let number = Int(port), port.allSatisfy(\.isASCII), (1...65_535).contains(number) else {
                return "\"\(port)\" is not a port (1-65535)"
            }
        }
        return nil
    }

    /// `url` without its user name and password, to name the proxy in a message or a log.
    public static func withoutCredentials(_ url: String) -> String {
        let start = url.range(of: "://")?.upperBound ?? url.startIndex
        let authorityEnd = url[start...].firstIndex(of: "/") ?? url.endIndex
        guard let at = url[start..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<start]) + String(url[url.index(after: at)...])
    }
}
