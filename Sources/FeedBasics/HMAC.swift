import CCrypto

/// HMAC (RFC 2104) over SHA-2, as WebSub signs a content distribution (`X-Hub-Signature:
/// sha256=<hex>`): computed by libcrypto, compared in constant time.
public enum HMAC {
    /// The SHA-2 widths a hub may sign with. SHA-1, which WebSub still allows, is refused.
    public static let widths: Set<Int> = [256, 384, 512]

    /// The MAC of `message` under `key` with SHA-`bits`; `nil` for a width not in ``widths``.
    public static func mac(bits: Int, key: [UInt8], message: [UInt8]) -> [UInt8]? {
        guard widths.contains(bits) else { return nil }
        var out = [UInt8](repeating: 0, count: 64)
        var count: UInt32 = 0
        let ok = key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                out.withUnsafeMutableBufferPointer { out in
                    feedmill_hmac(Int32(bits), key.baseAddress, key.count, message.baseAddress, message.count, out.baseAddress, &count)
                }
            }
        }
        return ok == 1 ? Array(out.prefix(Int(count))) : nil
    }

    /// Whether `a` and `b` are the same bytes, in time that does not depend on where they differ.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in feedmill_equal_in_constant_time(a.baseAddress, b.baseAddress, a.count) == 1 } }
    }
}
