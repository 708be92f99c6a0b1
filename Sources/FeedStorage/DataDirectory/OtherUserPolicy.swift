import FeedBasics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether a command may write into a directory that belongs to another user. Root running
/// `rss-update --feed 5` by hand used to leave a root-owned `feed_5.sqlite` that the service
/// could then never write again; so a writing command run by anyone but the directory's
/// owner refuses, says whose it is and how to run it as that user, and writes anyway only
/// when told (`--allow-other-user`; then, as root, what it creates is given to the owner:
/// ``CreatedFileOwnership``).
public struct OtherUserPolicy: Sendable, Equatable {
    /// `--allow-other-user` or `FEEDMILL_ALLOW_OTHER_USER=1`.
    public var allowOtherUser: Bool
    /// The command as given (the executable's name first), for the `sudo -u` line.
    public var commandLine: [String]

    public init(allowOtherUser: Bool = false, commandLine: [String] = CommandLine.arguments) {
        self.allowOtherUser = allowOtherUser
        self.commandLine = commandLine
    }

    /// Refuses writing into `directory` (when it exists; through a link, the directory it
    /// leads to) unless this process's effective user owns it or other users are allowed.
    /// - Parameter role: how the message names the directory: `data directory`, `output directory`.
    /// A directory not there yet is judged by the nearest one above it that is: one that
    /// another user owns (root aside: `/tmp`, `/var/lib` are everyone's starting points) is
    /// that user's place, and root creating the service's missing data directory inside
    /// `/var/lib/feedmill` would leave it root's.
    public func check(writingInto directory: String, role: String, euid: uid_t = geteuid()) throws(OtherOwnerRefusal) {
        guard !allowOtherUser else { return }
        if let owner = FileOwnership.ofDirectory(directory) {
            guard owner.uid != euid else { return }
            throw OtherOwnerRefusal(directory: directory, role: role, owner: owner.uid, runner: euid, commandLine: commandLine)
        }
        guard let (parent, owner) = Self.nearestExisting(above: directory), owner.uid != euid, owner.uid != 0 else { return }
        throw OtherOwnerRefusal(directory: parent, role: role + "'s parent", owner: owner.uid, runner: euid, commandLine: commandLine)
    }

    /// The nearest directory above `path` that exists, with its owner.
    static func nearestExisting(above path: String) -> (String, FileOwnership)? {
        var current = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        while current != "/" && !current.isEmpty {
            current = (current as NSString).deletingLastPathComponent
            if let owner = FileOwnership.ofDirectory(current.isEmpty ? "/" : current) { return (current.isEmpty ? "/" : current, owner) }
        }
        return nil
    }
}

/// A writing command run by a user who does not own the directory: exit 77 (EX_NOPERM).
public struct OtherOwnerRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public var directory: String
    /// How the message names the directory: `data directory`, `output directory`.
    public var role: String
    /// The directory's owner: who the `sudo -u` line runs as.
    public var owner: uid_t
    /// This process's effective user, refused.
    public var runner: uid_t
    /// The command as given, re-quoted into the `sudo -u` line.
    public var commandLine: [String]

    public init(directory: String, role: String, owner: uid_t, runner: uid_t, commandLine: [String]) {
        self.directory = directory
        self.role = role
        self.owner = owner
        self.runner = runner
        self.commandLine = commandLine
    }

    public var description: String {
        let ownerName = Accounts.knownUserName(owner)
        let owned = ownerName ?? "uid \(owner)"
        // sudo takes a uid as '#4242' where the system has no name for it.
        let sudoUser = ownerName ?? "'#\(owner)'"
        let this = Accounts.knownUserName(runner) ?? "uid \(runner)"
        return "the \(role) \(directory) belongs to \(owned), and this is \(this): files written now would not be writable by \(owned). "
            + "Run it as the owner: \"sudo -u \(sudoUser) \(ShellQuoting.commandLine(commandLine))\", or pass --allow-other-user."
    }
}

/// A command line re-quoted for a shell, as a person would paste it.
public enum ShellQuoting {
    /// The executable by its name (the `sudo` line runs the installed command, whatever path
    /// started this one), then each argument quoted where a shell would change it.
    public static func commandLine(_ arguments: [String]) -> String {
        guard let first = arguments.first else { return "" }
        let name = (first as NSString).lastPathComponent
        return ([name] + arguments.dropFirst().map(quote)).joined(separator: " ")
    }

    /// `word` bare when a shell reads it unchanged, else in single quotes.
    public static func quote(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")
        if !word.isEmpty, word.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
