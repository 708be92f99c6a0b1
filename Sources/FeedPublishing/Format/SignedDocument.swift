import FeedBasics
import Foundation

/// A root or pointer signed with the publisher's Ed25519 key (issue 52), as apt signs its
/// `Release` file: the document's own bytes `U` (one JSON object and a newline) are signed as
/// they are, and the signature goes in as the object's last member,
/// `,"signature":{"ed25519":"<base64>","key":"<key id>"}` before the final `}`. A client
/// that pins no key reads it as JSON with one member more; one that pins a key takes that
/// member off the end, gets `U` back byte for byte and checks the signature over it. No
/// canonical JSON is needed, and signing is deterministic (Ed25519), so an unchanged pointer
/// keeps its bytes and its ETag (a 304). The root names the catalog and every shard's record
/// by SHA-256, a pointer every file of its feed by SHA-256 and content digest: the two
/// signatures cover every byte a client keeps.
public enum SignedDocument {
    /// What precedes the signature in a signed document.
    public static let marker = Array(#","signature":{"ed25519":""#.utf8)

    /// `unsigned` with its signature, or `unsigned` itself when there is no key.
    static func sign(_ unsigned: [UInt8], with key: Ed25519SigningKey?, what: String) throws(PublishError) -> [UInt8] {
        guard let key else { return unsigned }
        guard unsigned.count > 2, unsigned.suffix(2) == [0x7D, 0x0A] else {
            throw .storage(.init(path: what, message: "cannot be signed: not one JSON object and a newline"))
        }
        guard let signature = key.sign(unsigned) else { throw .storage(.init(path: what, message: "libcrypto could not sign it")) }
        let member = marker + Array("\(Data(signature).base64EncodedString())\",\"key\":\"\(key.keyID)\"}".utf8)
        return Array(unsigned[..<(unsigned.count - 2)]) + member + [0x7D, 0x0A]
    }
}
