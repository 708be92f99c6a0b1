import Foundation

#if canImport(CryptoKit)
import CryptoKit
#elseif os(Linux)
import CCrypto
#endif

/// The publisher's signature on a root or a pointer (docs/client-contract.md, signed
/// publications): the document's unsigned bytes followed, before the final `}`, by
/// `,"signature":{"ed25519":"<base64>","key":"<key id>"}`. With keys pinned
/// (``PublicationSync/trustedKeys``), a document whose signature is missing, by another key or
/// wrong is refused, and the files held stay as they are.
public struct TrustedKey: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The raw 32-byte Ed25519 public key.
    public let bytes: [UInt8]

    /// `ed25519:<base64 of the 32-byte public key>`, as `rss-publish --generate-key` prints it.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("ed25519:"), let data = Data(base64Encoded: String(trimmed.dropFirst(8))), data.count == 32 else { return nil }
        bytes = [UInt8](data)
    }

    public var description: String { "ed25519:" + Data(bytes).base64EncodedString() }

    /// The first 16 hex digits of the key's SHA-256, which a signature names it by.
    public var id: String { String(SHA256Hasher.hexDigest(Data(bytes)).prefix(16)) }
}

enum SignatureCheck {
    static let marker = Array(#","signature":{"ed25519":""#.utf8)

    /// The unsigned bytes of `document`, once its signature is found good for one of `keys`.
    static func verified(_ document: Data, keys: [TrustedKey], file: String) throws(ClientError) -> Data {
        let bytes = [UInt8](document)
        guard let start = lastRange(of: marker, in: bytes) else {
            throw .unverified(file: file, reason: "it is not signed, and this client trusts only signed publications")
        }
        // The rest: <base64>","key":"<16 hex>"}}\n
        let rest = String(decoding: bytes[(start + marker.count)...], as: UTF8.self)
        let parts = rest.components(separatedBy: "\",\"key\":\"")
        guard parts.count == 2, parts[1].hasSuffix("\"}}\n"), let signature = Data(base64Encoded: parts[0]), signature.count == 64 else {
            throw .unverified(file: file, reason: "its signature is not in the form the contract gives")
        }
        let keyID = String(parts[1].dropLast(4))
        guard let key = keys.first(where: { $0.id == keyID }) else {
            throw .unverified(
                file: file, reason: "it is signed by key \(keyID), which this client does not trust (it trusts \(keys.map(\.id).joined(separator: ", ")))")
        }
        let unsigned = Array(bytes[..<start]) + [0x7D, 0x0A]
        guard verify(unsigned, signature: [UInt8](signature), key: key.bytes) else {
            throw .unverified(file: file, reason: "its signature by key \(keyID) does not match its content (forged or changed on the way)")
        }
        return Data(unsigned)
    }

    private static func lastRange(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        var index = bytes.count - pattern.count
        while index >= 0 {
            if bytes[index] == pattern[0], Array(bytes[index..<(index + pattern.count)]) == pattern { return index }
            index -= 1
        }
        return nil
    }

    private static func verify(_ message: [UInt8], signature: [UInt8], key: [UInt8]) -> Bool {
        #if canImport(CryptoKit)
        guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: key) else { return false }
        return publicKey.isValidSignature(signature, for: message)
        #elseif os(Linux)
        return feedmill_ed25519_verify(key, message, message.count, signature) == 1
        #else
        return false
        #endif
    }
}
