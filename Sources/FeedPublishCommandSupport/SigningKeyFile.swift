import FeedBasics
import FeedCommandSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The publisher's signing key on disk (`rss-publish --generate-key FILE`, then
/// `--signing-key FILE`): one line, `ed25519-private:<base64 of the 32-byte seed>`, in a file
/// of mode 0600 owned by whoever runs the publisher (issue 52). Generating never replaces a
/// file; reading refuses a key others may read, as ssh does.
public enum SigningKeyFile {
    public enum Problem: Error, CustomStringConvertible, Equatable {
        case exists(path: String)
        case cannotCreate(path: String, reason: String)
        case unreadable(path: String, reason: String)
        case readableByOthers(path: String, mode: UInt32)
        case notAKey(path: String)

        public var description: String {
            switch self {
            case .exists(let path): "\(path) exists: a signing key is never overwritten (clients pin it); choose another name, or remove it yourself"
            case .cannotCreate(let path, let reason): "\(path) cannot be created: \(reason)"
            case .unreadable(let path, let reason): "the signing key \(path) cannot be read: \(reason)"
            case .readableByOthers(let path, let mode):
                "the signing key \(path) may be read by others (mode \(String(mode & 0o777, radix: 8))): chmod 600 \(path)"
            case .notAKey(let path): "\(path) is not a Feedmill signing key (one line, ed25519-private:<base64 of 32 bytes>)"
            }
        }

        public var exitCode: Int32 {
            switch self {
            case .exists, .cannotCreate: ExitStatus.cannotCreate
            case .unreadable: ExitStatus.noInput
            case .readableByOthers: ExitStatus.noPermission
            case .notAKey: ExitStatus.noInput
            }
        }
    }

    /// Creates `path` (mode 0600, never over an existing file) with a new key; returns it.
    public static func generate(at path: String) throws(Problem) -> Ed25519SigningKey {
        guard let key = Ed25519SigningKey.generate() else { throw .cannotCreate(path: path, reason: "libcrypto could not make a key") }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { throw .exists(path: path) }
            throw .cannotCreate(path: path, reason: String(cString: strerror(code)))
        }
        let line = Array((Ed25519Text.privatePrefix + Data(key.seed).base64EncodedString() + "\n").utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard written == line.count, synced else {
            unlink(path)  // ours: created above with O_EXCL
            throw .cannotCreate(path: path, reason: String(cString: strerror(code)))
        }
        return key
    }

    /// The key in `path`.
    public static func read(_ path: String) throws(Problem) -> Ed25519SigningKey {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & 0o077 == 0 else { throw .readableByOthers(path: path, mode: status.st_mode) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path, reason: "permission denied or not a file") }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix(Ed25519Text.privatePrefix), let seed = Data(base64Encoded: String(text.dropFirst(Ed25519Text.privatePrefix.count))),
            let key = Ed25519SigningKey(seed: [UInt8](seed))
        else { throw .notAKey(path: path) }
        return key
    }
}
