import Testing

@testable import FeedBasics

@Suite("SHA-256 against the FIPS 180-4 test vectors")
struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        ("The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func vector(input: String, digest: String) {
        #expect(SHA256.hexDigest(input) == digest)
    }

    @Test func aMillionAs() {
        var hasher = SHA256()
        hasher.update([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(SHA256.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

@Suite("SHA-256 in pieces")
struct SHA256ChunkTests {
    @Test(arguments: [1, 3, 63, 64, 65, 1000])
    func chunkedUpdatesGiveTheSameDigest(chunk: Int) {
        let data = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var hasher = SHA256()
        var offset = 0
        while offset < data.count {
            hasher.update(Array(data[offset..<min(offset + chunk, data.count)]))
            offset += chunk
        }
        #expect(SHA256.hex(hasher.finalize()) == SHA256.hexDigest(data))
    }
}
