#if canImport(Glibc)
import Glibc
#endif

/// Which addresses the fetcher may connect to: by default only public ones, so that a feed
/// URL (or a redirect, or a DNS answer) cannot make Feedmill read an internal service such as
/// a cloud metadata endpoint, a database admin page or the machine's own loopback.
///
/// The check runs on the address libcurl is about to connect to, for every connection,
/// redirects included, so it cannot be sidestepped by a name that resolves somewhere private.
public struct NetworkPolicy: Sendable, Equatable {
    /// Allow loopback, private, link-local and other non-public addresses (tests, a demo
    /// server on 127.0.0.1, an intranet deployment).
    public var allowPrivateNetworks: Bool
    /// Addresses allowed even when private networks are not (an operator's internal mirror).
    public var allowedAddresses: Set<String>

    public init(allowPrivateNetworks: Bool = false, allowedAddresses: Set<String> = []) {
        self.allowPrivateNetworks = allowPrivateNetworks
        self.allowedAddresses = allowedAddresses
    }

    public static let publicOnly = NetworkPolicy()
    public static let allowAll = NetworkPolicy(allowPrivateNetworks: true)

    /// Whether a connection to `address` (numeric IPv4 or IPv6) may be made.
    public func permits(_ address: IPAddress) -> Bool {
        allowPrivateNetworks || allowedAddresses.contains(address.description) || address.isPublic
    }
}

/// A numeric IP address, with the classification the policy needs.
public enum IPAddress: Equatable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    case v6([UInt8])

    /// Parses dotted IPv4 or textual IPv6; `nil` for anything else (names included).
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    public var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
        case .v6(var bytes):
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            _ = bytes.withUnsafeMutableBytes { inet_ntop(AF_INET6, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Globally routable unicast: not loopback, private (RFC 1918, unique local), shared
    /// (CGNAT), link-local, multicast, documentation, benchmarking, reserved or unspecified.
    public var isPublic: Bool {
        switch self {
        case .v4(let value):
            return !Self.nonPublicV4.contains { value & $0.mask == $0.network }
        case .v6(let bytes):
            // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
                || bytes[0..<12].elementsEqual([0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0])
            {
                let embedded = bytes[12..<16].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return IPAddress.v4(embedded).isPublic
            }
            if bytes.allSatisfy({ $0 == 0 }) { return false }  // ::
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return false }  // ::1
            if bytes[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
            if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local (deprecated)
            if bytes[0] == 0xFF { return false }  // multicast
            if bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0x0D && bytes[3] == 0xB8 { return false }  // 2001:db8::/32
            if bytes[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::a.b.c.d (deprecated compatible)
            return true
        }
    }

    private static let nonPublicV4: [(network: UInt32, mask: UInt32)] = [
        ("0.0.0.0", 8), ("10.0.0.0", 8), ("100.64.0.0", 10), ("127.0.0.0", 8), ("169.254.0.0", 16),
        ("172.16.0.0", 12), ("192.0.0.0", 24), ("192.0.2.0", 24), ("192.88.99.0", 24), ("192.168.0.0", 16),
        ("198.18.0.0", 15), ("198.51.100.0", 24), ("203.0.113.0", 24), ("224.0.0.0", 4), ("240.0.0.0", 4),
    ].map { text, bits in
        guard case .v4(let network)? = IPAddress(text) else { return (0, 0) }
        return (network, bits == 0 ? 0 : UInt32.max << UInt32(32 - bits))
    }
}
