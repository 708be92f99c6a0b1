import Foundation
import Testing

@testable import FeedmillClient

/// The client's own SHA-256 against the examples of FIPS 180-2 (appendix B) and NIST's
/// published test vectors: the empty string, one block, two blocks, a million `a`s.
struct SHA256HasherTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func knownVectors(message: String, digest: String) {
        #expect(SHA256Hasher.hexDigest(message) == digest)
        #expect(SHA256Hasher.hexDigest(Data(message.utf8)) == digest)
    }

    @Test func aMillionAsFedInUnevenPieces() {
        var hasher = SHA256Hasher()
        var remaining = 1_000_000
        var piece = 1
        while remaining > 0 {
            let count = min(piece, remaining)
            hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: count))
            remaining -= count
            piece = piece % 129 + 7
        }
        #expect(SHA256Hasher.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundary (55, 56, 63, 64, 65 bytes), checked against the
    /// one-shot digest of the same bytes fed byte by byte.
    @Test(arguments: [55, 56, 57, 63, 64, 65, 119, 120, 128])
    func paddingBoundaries(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA256Hasher()
        for byte in bytes { hasher.update([byte]) }
        #expect(SHA256Hasher.hex(hasher.finalize()) == SHA256Hasher.hexDigest(bytes))
    }
}
