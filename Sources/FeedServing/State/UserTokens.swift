import FeedBasics
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `--users FILE`: who may read and write reading state. One token per line, `NAME
/// SHA256-HEX-OF-TOKEN` (a user may have several lines, a token per device, each revoked by
/// removing its line; the token itself is never stored: only its SHA-256, so the file
/// read by someone else gives no token); `#` comments and blank lines are skipped. A request's
/// `Authorization: Bearer TOKEN` is hashed and looked up: comparing hashes, whose timing says
/// nothing of a token. The file is read again when it changes (looked at once a second at most),
/// so users are added or removed without a restart; a change that cannot be read keeps the
/// users read before, and says why; a file deleted lets no one in until it is back.
final class UserTokens: Sendable {
    /// Why the file cannot be used, with its line.
    struct Invalid: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    let path: String
    private struct State {
        var users: [String: String] = [:]
        var identity: String?
        var lookedAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    /// Hears of a change that could not be read.
    let onReloadFailure: @Sendable (String) -> Void

    init(path: String, onReloadFailure: @escaping @Sendable (String) -> Void = { _ in }) throws(Invalid) {
        self.path = path
        self.onReloadFailure = onReloadFailure
        let (users, identity) = try Self.load(path)
        state.withLock { $0 = State(users: users, identity: identity, lookedAt: .now) }
    }

    /// The user whose token this is; nil for none.
    func user(token: String) -> String? {
        reloadIfChanged()
        let hash = SHA256.hexDigest(Array(token.utf8))
        return state.withLock { $0.users[hash] }
    }

    /// The user an `Authorization` header names (`Bearer TOKEN`, scheme in any case); nil
    /// for none, another scheme or an unknown token.
    func user(authorization: String?) -> String? {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else { return nil }
        let token = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty, token.utf8.count <= 4_096 else { return nil }
        return user(token: token)
    }

    var count: Int { state.withLock { $0.users.count } }

    private func reloadIfChanged() {
        let due = state.withLock { state -> Bool in
            if let last = state.lookedAt, ContinuousClock.now - last < .seconds(1) { return false }
            state.lookedAt = .now
            return true
        }
        guard due else { return }
        guard let identity = Self.identity(path) else {
            // Gone: no one is let in until it is back (deleting the file revokes every token).
            let had = state.withLock { state -> Bool in
                defer { (state.users, state.identity) = ([:], nil) }
                return state.identity != nil
            }
            if had { onReloadFailure("\(path) is gone: no user is let in until it is back") }
            return
        }
        guard identity != state.withLock({ $0.identity }) else { return }
        do {
            let (users, identity) = try Self.load(path)
            state.withLock { $0.users = users; $0.identity = identity }
        } catch {
            state.withLock { $0.identity = identity }
            onReloadFailure(error.description)
        }
    }

    static func identity(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_dev):\(status.st_ino):\(status.st_size):\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }

    /// The users of the file: token hash → name.
    static func load(_ path: String) throws(Invalid) -> (users: [String: String], identity: String?) {
        let identity = identity(path)
        var status = stat()
        guard stat(path, &status) == 0 else { throw Invalid(description: "\(path): \(SystemError.describe(errno))") }
        // Whoever may write it may give themselves a user: as with the signing key, not others.
        guard status.st_mode & 0o022 == 0 else {
            throw Invalid(description: "\(path) may be written by others (mode \(String(status.st_mode & 0o777, radix: 8))): chmod go-w it")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Invalid(description: "\(path): cannot be read as UTF-8 text")
        }
        return (try parse(text, name: path), identity)
    }

    static func parse(_ text: String, name: String) throws(Invalid) -> [String: String] {
        var users: [String: String] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let at = "\(name):\(index + 1)"
            guard fields.count == 2 else { throw Invalid(description: "\(at): expected NAME SHA256-HEX-OF-TOKEN") }
            let user = String(fields[0]), hash = fields[1].lowercased()
            guard user.utf8.count <= 64, user.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._@-".unicodeScalars.contains($0)) })
            else { throw Invalid(description: "\(at): a user name is 1 to 64 of A-Z a-z 0-9 . _ @ -") }
            guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw Invalid(description: "\(at): the token's SHA-256 is 64 hex digits (printf %s TOKEN | sha256sum)")
            }
            guard users[hash] == nil else { throw Invalid(description: "\(at): the same token as \(users[hash]!)") }
            users[hash] = user
        }
        return users
    }
}
