import FeedBasics
/// The form in which two feed URLs are compared to find the same feed listed twice.
///
/// `http://Example.COM/feed`, `http://example.com:80/feed`, `http://example.com/feed#x` and
/// `http://example.com/f%65ed` all name one feed (RFC 3986 §6.2.2–6.2.3): the scheme and host
/// are lower-cased, a default port and the fragment are dropped, percent-encoded unreserved
/// characters are decoded and other percent-encodings upper-cased, an empty path becomes `/`.
/// The key is for comparing only: the URL is stored and fetched as the operator wrote it.
public enum FeedURLKey {
    public static func key(_ url: String) -> String {
        // Most URLs are written in their normal form already: found so in one pass over the
        // bytes, the URL is its own key, and nothing is built (an update run keys every feed
        // of the catalog to find the same feed listed twice: 1.6 s a million feeds, built).
        isNormal(url) ? url : normalized(url)
    }

    /// The normal form, built.
    static func normalized(_ url: String) -> String {
        var rest = Substring(url.trimmingASCIIWhitespace())
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") else { return String(rest) }
        let scheme = rest[..<colon].lowercased()
        rest = rest[rest.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = String(rest[..<authorityEnd])
        let pathAndQuery = rest[authorityEnd...]
        let userInfo: String
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[...at])
            authority = String(authority[authority.index(after: at)...])
        } else {
            userInfo = ""
        }
        var host = authority.lowercased()
        let defaultPort = ["http": ":80", "https": ":443"][scheme]
        if let defaultPort, host.hasSuffix(defaultPort) { host.removeLast(defaultPort.count) }
        if host.hasSuffix(":") { host.removeLast() }
        var path = normalizedPercentEncoding(pathAndQuery)
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        return scheme + "://" + userInfo + host + path
    }

    /// Whether ``key(_:)`` would give `url` back unchanged: a lower-case `http://` or `https://`,
    /// a host of lower-case letters, digits, `.`, `-` and `_`, perhaps a port of digits that is
    /// not the scheme's default, then a path (not empty), and no `%`, `#` or white space
    /// anywhere. Anything else (user information, an IPv6 literal, upper case) is `false`,
    /// which only costs the full way.
    static func isNormal(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        let isHTTPS = bytes.starts(with: "https://".utf8)
        guard isHTTPS || bytes.starts(with: "http://".utf8) else { return false }
        var index = isHTTPS ? 8 : 7
        let hostStart = index
        while index < bytes.count, isHostByte(bytes[index]) { index += 1 }
        guard index > hostStart, index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: ":") {
            let portStart = index + 1
            index = portStart
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let port = bytes[portStart..<index]
            guard !port.isEmpty, !port.elementsEqual((isHTTPS ? "443" : "80").utf8) else { return false }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "/") else { return false }
        return !bytes[index...].contains { $0 <= 0x20 || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "#") }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
            UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    private static func normalizedPercentEncoding(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                let value = high << 4 | low
                if isUnreserved(value) {
                    output.append(value)
                } else {
                    output.append(contentsOf: [UInt8(ascii: "%"), upperHex(high), upperHex(low)])
                }
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func upperHex(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
