import FeedBasics
import Foundation

/// Finds and reads the configuration file. First found wins, and files are never layered
/// (`--print-config` says where each value came from, which layering would blur):
/// 1. `--config PATH`, which must exist;
/// 2. `FEEDMILL_CONFIG`, which must exist; the value `none` reads no file at all (tests, and
///    a run that must not pick up a file lying around);
/// 3. `./feedmill.toml`, 4. `$XDG_CONFIG_HOME/feedmill/feedmill.toml` (else
///    `$HOME/.config/feedmill/feedmill.toml`), 5. ``systemPath``: each only when it exists.
///
/// Why `/etc` last: the file Debian installs is what the service reads, and a person running a
/// command by hand on the server gets the service's data directory rather than `./data`.
public enum ConfigFileLocator {
    public static let defaultName = "feedmill.toml"

    /// Where a system-wide installation (the Debian package) puts its configuration.
    public static let systemPath = "/etc/feedmill/feedmill.toml"

    /// `FEEDMILL_CONFIG=none`: read no configuration file.
    public static let noFileValue = "none"

    /// One place the search looked, in order, and what it found there.
    public struct Candidate: Sendable, Equatable {
        public enum Finding: Sendable, Equatable {
            /// The file read (the first found).
            case used
            /// Looked for, and not there.
            case notThere
            /// Not looked at: a file before it was found, or `FEEDMILL_CONFIG=none`.
            case skipped
        }

        /// How the candidate is named: `--config`, `FEEDMILL_CONFIG`, or `search path`.
        public let origin: String
        public let path: String
        public var finding: Finding

        public init(origin: String, path: String, finding: Finding) {
            self.origin = origin
            self.path = path
            self.finding = finding
        }
    }

    /// What the search came to: the file read, if any, where its name came from, and every
    /// place it looked, for `--print-config`.
    public struct Located: Sendable {
        public var file: ConfigFile?
        public var source: SettingSource
        public var candidates: [Candidate]
    }

    /// Places 3 to 5 of the search, in order; each counts only when it exists.
    public static func searchPath(environment: [String: String]) -> [String] {
        var userConfig: String?
        // A relative XDG_CONFIG_HOME is invalid and ignored, as the XDG specification says
        // (it would name a different file in every working directory).
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            userConfig = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            userConfig = home + "/.config"
        }
        return ["./" + defaultName] + (userConfig.map { [$0 + "/feedmill/" + defaultName] } ?? []) + [systemPath]
    }

    /// - Parameter exists: whether a place of the search path holds a file (tests pass their own).
    public static func load(
        commandLine path: String?, environment: [String: String],
        exists: (String) -> Bool = isThere
    ) throws(SettingsError) -> Located {
        var candidates: [Candidate] = []
        let named = environment["FEEDMILL_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        if let path {
            candidates.append(Candidate(origin: "--config", path: path, finding: .used))
            if let named { candidates.append(Candidate(origin: "FEEDMILL_CONFIG", path: named, finding: .skipped)) }
            candidates += searchPath(environment: environment).map { Candidate(origin: "search path", path: $0, finding: .skipped) }
            return Located(file: try read(path, source: .commandLine), source: .commandLine, candidates: candidates)
        }
        if let named {
            let none = named == noFileValue
            candidates.append(Candidate(origin: "FEEDMILL_CONFIG", path: named, finding: none ? .skipped : .used))
            candidates += searchPath(environment: environment).map { Candidate(origin: "search path", path: $0, finding: .skipped) }
            if none { return Located(file: nil, source: .environment("FEEDMILL_CONFIG"), candidates: candidates) }
            let source = SettingSource.environment("FEEDMILL_CONFIG")
            return Located(file: try read(named, source: source), source: source, candidates: candidates)
        }
        var found: String?
        for candidate in searchPath(environment: environment) {
            let finding: Candidate.Finding = found != nil ? .skipped : (exists(candidate) ? .used : .notThere)
            if finding == .used { found = candidate }
            candidates.append(Candidate(origin: "search path", path: candidate, finding: finding))
        }
        // A file that is there always counts: unreadable or not UTF-8 is an error, not "no file".
        guard let found else { return Located(file: nil, source: .unset, candidates: candidates) }
        return Located(file: try read(found, source: .searchPath), source: .searchPath, candidates: candidates)
    }

    /// A place of the search path holds a file: it is there, or it cannot even be looked at
    /// (a directory this user may not search), which ``read(_:source:)`` then says.
    public static func isThere(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 || SystemError.isPermission(errno)
    }

    private static func read(_ path: String, source: SettingSource) throws(SettingsError) -> ConfigFile {
        var info = stat()
        if stat(path, &info) != 0, !SystemError.isPermission(errno) {
            throw SettingsError(message: "configuration file \(path) (from \(source)) does not exist", exitStatus: ExitStatus.noInput)
        }
        let data: [UInt8]
        switch SmallFile.read(path) {
        case .success(let bytes):
            data = bytes
        case .failure(let failure):
            throw SettingsError(
                message: "configuration file \(path) (from \(source)) cannot be read: \(failure)"
                    + (source == .searchPath ? "; FEEDMILL_CONFIG=none reads no file" : ""),
                exitStatus: failure.exitStatus)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw SettingsError(message: "configuration file \(path) (from \(source)) is not UTF-8 text")
        }
        return try rethrowing(try ConfigFile(path: path, text: text), as: { (error: ConfigFileError) in SettingsError(message: error.description) })
    }
}
