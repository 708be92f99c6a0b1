import CCrypto
import Foundation

/// An Ed25519 key pair (RFC 8032) through OpenSSL's libcrypto, which every Feedmill binary
/// already links: what signs a publication's root and pointers (issue 52). The private key is
/// its 32-byte seed; the public key and its id are derived from it.
public struct Ed25519SigningKey: Sendable {
    public let seed: [UInt8]
    public let publicKey: [UInt8]

    /// Nil when `seed` is not 32 bytes or libcrypto refuses it.
    public init?(seed: [UInt8]) {
        guard seed.count == 32 else { return nil }
        var key = [UInt8](repeating: 0, count: 32)
        guard feedmill_ed25519_public_key(seed, &key) == 1 else { return nil }
        self.seed = seed
        publicKey = key
    }

    /// A new key from the system's cryptographic random source (`getrandom`).
    public static func generate() -> Ed25519SigningKey? {
        var generator = SystemRandomNumberGenerator()
        return Ed25519SigningKey(seed: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The 64-byte signature of `message` (deterministic: the same message, the same bytes).
    public func sign(_ message: [UInt8]) -> [UInt8]? {
        var signature = [UInt8](repeating: 0, count: 64)
        guard feedmill_ed25519_sign(seed, message, message.count, &signature) == 1 else { return nil }
        return signature
    }

    /// `ed25519:<base64 of the public key>`: what an operator gives clients to pin.
    public var publicKeyText: String { Ed25519Text.publicKey(publicKey) }
    /// The first 16 hex digits of the public key's SHA-256: names the key in a signature.
    public var keyID: String { Ed25519Text.keyID(publicKey) }
}

/// The texts of keys and signatures, shared by the signer and the checks.
public enum Ed25519Text {
    public static let publicPrefix = "ed25519:"
    public static let privatePrefix = "ed25519-private:"

    public static func publicKey(_ key: [UInt8]) -> String { publicPrefix + Data(key).base64EncodedString() }

    public static func keyID(_ key: [UInt8]) -> String { String(SHA256.hexDigest(key).prefix(16)) }

    /// The 32 bytes of `ed25519:<base64>`, or nil.
    public static func parsePublicKey(_ text: String) -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(publicPrefix), let data = Data(base64Encoded: String(trimmed.dropFirst(publicPrefix.count))), data.count == 32
        else { return nil }
        return [UInt8](data)
    }

    public static func verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool {
        guard publicKey.count == 32, signature.count == 64 else { return false }
        return feedmill_ed25519_verify(publicKey, message, message.count, signature) == 1
    }
}
