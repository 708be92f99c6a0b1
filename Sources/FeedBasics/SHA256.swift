import CCrypto

/// SHA-256 (FIPS 180-4), for ids that must be stable across runs and machines, and for whole
/// response bodies (to tell an unchanged 200 from a changed one).
///
/// Computed by OpenSSL's libcrypto, which libcurl already loads: its assembly hashes several
/// times faster than the pure Swift implementation this replaced (`Scripts/bench/run hash`).
public struct SHA256: Sendable {
    private var context = feedmill_sha256_context()

    public init() {
        feedmill_sha256_init(&context)
    }

    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        feedmill_sha256_update(&context, base, buffer.count)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ string: String) {
        var copy = string
        copy.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The 32-byte digest. The hasher is consumed.
    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { feedmill_sha256_final(&context, $0.baseAddress) }
        return digest
    }

    /// Lowercase hexadecimal digest of `bytes`.
    public static func hexDigest(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { digestHex($0) }
    }

    /// Lowercase hexadecimal digest of `string`'s UTF-8 bytes.
    public static func hexDigest(_ string: String) -> String {
        var copy = string
        return copy.withUTF8 { digestHex(UnsafeRawBufferPointer($0)) }
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { hex($0) }
    }

    /// One call into libcrypto, the digest on the stack, then 64 hex digits in one string.
    private static func digestHex(_ buffer: UnsafeRawBufferPointer) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
            // An empty buffer has no address; libcrypto reads nothing when the count is 0.
            feedmill_sha256(buffer.baseAddress, buffer.count, digest.baseAddress)
            return hex(UnsafeBufferPointer(digest))
        }
    }

    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { output in
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { digits in
                for (index, byte) in bytes.enumerated() {
                    output[index * 2] = digits[Int(byte >> 4)]
                    output[index * 2 + 1] = digits[Int(byte & 0x0f)]
                }
            }
            return bytes.count * 2
        }
    }
}
