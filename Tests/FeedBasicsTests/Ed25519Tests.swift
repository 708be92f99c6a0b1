import FeedBasics
import Foundation
import Testing

/// The signing primitive against RFC 8032's own test vectors (section 7.1), so a signed
/// publication verifies with any Ed25519 implementation, CryptoKit's included.
struct Ed25519Tests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    @Test(arguments: [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
        ),
    ])
    func rfc8032Vectors(secret: String, publicKey: String, message: String, signature: String) throws {
        let key = try #require(Ed25519SigningKey(seed: Self.bytes(secret)))
        #expect(key.publicKey == Self.bytes(publicKey))
        #expect(key.sign(Self.bytes(message)) == Self.bytes(signature))
        #expect(Ed25519Text.verify(publicKey: key.publicKey, message: Self.bytes(message), signature: Self.bytes(signature)))
        var changed = Self.bytes(signature)
        changed[10] ^= 1
        #expect(!Ed25519Text.verify(publicKey: key.publicKey, message: Self.bytes(message), signature: changed))
    }

    @Test func aKeyTextRoundTrips() throws {
        let key = try #require(Ed25519SigningKey.generate())
        #expect(Ed25519Text.parsePublicKey(key.publicKeyText) == key.publicKey)
        #expect(key.keyID.count == 16)
        #expect(Ed25519SigningKey(seed: [1, 2, 3]) == nil)
    }
}
