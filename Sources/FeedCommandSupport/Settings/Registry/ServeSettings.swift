/// Settings of rss-serve of its own; it reads the publisher's (out, deltas, title, site-url,
/// signing-key) to publish what hubs push, and the fetcher's to ask hubs.
extension Settings {
    public static let listen = Setting(
        "listen", type: SettingType.text("HOST:PORT (127.0.0.1:8080, [::1]:8080)") { ServeAddress($0) != nil },
        default: "127.0.0.1:8080", valueName: "host:port", "Address and port rss-serve listens on.")

    public static let publicURL = Setting(
        "public-url",
        type: SettingType.text("an http(s) URL without a query") { ServeAddress.isPublicURL($0) }.orUnset, default: nil, valueName: "url",
        unsetMeans: "none (no WebSub subscriptions)",
        "The URL hubs reach rss-serve at (https://feeds.example.org): with it, rss-serve subscribes to the hubs feeds "
            + "advertise and takes their pushes into data-dir.")

    public static let users = Setting(
        "users", type: SettingType.text.orUnset, default: nil, valueName: "file",
        unsetMeans: "none (no reading state kept)",
        "A file of NAME SHA256-HEX-OF-TOKEN lines (not writable by others): the users whose read and starred marks "
            + "rss-serve keeps in data-dir and shares between their devices at /v1/state (Authorization: Bearer TOKEN).")
}

/// `--listen`'s value: a host (an IPv6 address in brackets) and a port.
public struct ServeAddress: Sendable, Equatable {
    public var host: String
    public var port: Int

    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == " " }) else { return nil }
        (self.host, self.port) = (host, port)
    }

    /// `http(s)://host[:port][/path]`, no query, no fragment, no user.
    public static func isPublicURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard let rest = ["https://", "http://"].first(where: lower.hasPrefix).map({ text.dropFirst($0.count) }) else { return false }
        let authority = rest.prefix { $0 != "/" }
        return !authority.isEmpty && !authority.contains("@") && !text.contains("?") && !text.contains("#") && !text.contains(" ")
    }
}
