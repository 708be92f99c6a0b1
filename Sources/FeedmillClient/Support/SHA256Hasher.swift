import Foundation

/// SHA-256 (FIPS 180-4), to check every downloaded file and every content digest.
///
/// Written in Swift because Foundation has no SHA-256 on Linux and the client must not need
/// libcrypto or CryptoKit (it builds wherever Foundation and SQLite do). Full 64-byte blocks
/// are compressed straight from the caller's buffer, so hashing a downloaded database copies
/// nothing. (Feedmill's own pipeline hashes with libcrypto; this is its earlier pure version.)
struct SHA256Hasher: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

    init() {
        pending.reserveCapacity(64)
    }

    mutating func update(_ buffer: UnsafeRawBufferPointer) {
        totalBytes &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<take])
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0, blocks: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let blocks = (buffer.count - offset) / 64
        if blocks > 0 {
            compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + blocks * 64]), blocks: blocks)
            offset += blocks * 64
        }
        pending.append(contentsOf: buffer[offset...])
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    mutating func update(_ string: String) {
        var copy = string
        copy.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Lowercase hexadecimal digest of `bytes`.
    static func hexDigest(_ bytes: [UInt8]) -> String {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hex(hasher.finalize())
    }

    /// The 32-byte digest. The hasher is consumed.
    consuming func finalize() -> [UInt8] {
        let bitLength = totalBytes &* 8
        pending.append(0x80)
        while pending.count % 64 != 56 { pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        let tail = pending
        tail.withUnsafeBytes { compress($0, blocks: $0.count / 64) }
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        return words.flatMap { word in
            [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
    }

    /// Lowercase hexadecimal digest of `data`.
    static func hexDigest(_ data: Data) -> String {
        var hasher = SHA256Hasher()
        hasher.update(data)
        return hex(hasher.finalize())
    }

    /// Lowercase hexadecimal digest of `string`'s UTF-8 bytes.
    static func hexDigest(_ string: String) -> String {
        var hasher = SHA256Hasher()
        hasher.update(string)
        return hex(hasher.finalize())
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Compresses `blocks` consecutive 64-byte blocks with one schedule buffer and unchecked
    /// access to the constants for the whole run: every response body is hashed.
    private mutating func compress(_ data: UnsafeRawBufferPointer, blocks: Int) {
        guard blocks > 0 else { return }
        var current = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            Self.roundConstants.withUnsafeBufferPointer { k in
                for block in 0..<blocks {
                    let base = block * 64
                    for i in 0..<16 {
                        w[i] = UInt32(bigEndian: data.loadUnaligned(fromByteOffset: base + i * 4, as: UInt32.self))
                    }
                    for i in 16..<64 {
                        let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                        let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = current
                    for i in 0..<64 {
                        let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                        let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
                    }
                    current = (
                        current.0 &+ a, current.1 &+ b, current.2 &+ c, current.3 &+ d, current.4 &+ e, current.5 &+ f,
                        current.6 &+ g, current.7 &+ h
                    )
                }
            }
        }
        state = current
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
