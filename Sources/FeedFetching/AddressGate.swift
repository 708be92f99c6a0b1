import CCurl

#if canImport(Glibc)
import Glibc
#endif

/// libcurl's open-socket hook: the one place every connection passes through, after DNS and
/// for every redirect hop, so the ``NetworkPolicy`` is applied to the address actually used.
enum AddressGate {
    static func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>, sink: TransferSink) -> curl_socket_t {
        guard let ip = ipAddress(address) else {
            sink.blockedAddress = "an address of unknown family"
            return CURL_SOCKET_BAD
        }
        guard sink.policy.permits(ip) else {
            sink.blockedAddress = ip.description
            return CURL_SOCKET_BAD
        }
        return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
    }

    private static func ipAddress(_ address: UnsafeMutablePointer<curl_sockaddr>) -> IPAddress? {
        withUnsafeMutablePointer(to: &address.pointee.addr) { raw -> IPAddress? in
            switch Int32(raw.pointee.sa_family) {
            case AF_INET:
                return raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    .v4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr))
                }
            case AF_INET6:
                return raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var address = pointer.pointee.sin6_addr
                    return .v6(withUnsafeBytes(of: &address) { Array($0) })
                }
            default:
                return nil
            }
        }
    }
}
