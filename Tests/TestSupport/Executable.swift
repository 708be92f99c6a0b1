import Foundation

/// Runs the built commands (beside the test bundle) as processes, by the names users call them:
/// `rss-update` is a link to the one executable `feedmill` (Scripts/command-links makes the
/// same links for scripts), made here when the build directory has none yet.
public struct Executable {
    public let name: String

    public init(name: String) { self.name = name }

    public var url: URL {
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
        // rss-serve is an executable of its own (it alone links SwiftNIO), not a link.
        if Self.commands.contains(name) { Self.linkToFeedmill(url.path) }
        return url
    }

    /// Every command's names the users call them by.
    public static let commands = ["rss-create", "rss-update", "rss-publish", "rss-inspect", "rss-feeds", "rss-pull"]

    /// The build directory with a link for every command in it: for a test that hands the
    /// directory to something else (PATH, a unit file, a packaging script), which would
    /// otherwise find only the links other tests happened to make before it.
    public static var directoryWithEveryCommand: String {
        let urls = commands.map { Executable(name: $0).url }  // each made as its link
        return urls[0].deletingLastPathComponent().path
    }

    /// `path` as a link to `feedmill` beside it. A file of that name that is not such a link
    /// (an `rss-update` executable left in the build directory by a build from before the
    /// commands were one executable) is replaced: it is the build's, and stale.
    private static func linkToFeedmill(_ path: String) {
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == "feedmill" { return }
        let fresh = path + ".link-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        guard symlink("feedmill", fresh) == 0 else { return }
        if rename(fresh, path) != 0 { unlink(fresh) }
    }

    /// - Parameter user: run as this uid and gid instead (util-linux's `setpriv`: real and
    ///   effective ids, no supplementary groups), for a test run as root that must see what
    ///   the service's user or an unprivileged one sees.
    public func start(
        _ arguments: [String], environment: [String: String] = [:], captureOutput: Bool = false, as user: (uid: UInt32, gid: UInt32)? = nil
    ) throws -> Process {
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--", url.path] + arguments
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
        // Only what the test sets: a FEEDMILL_* variable, a proxy or a certificate bundle in
        // the caller's shell must not leak in.
        let fetching: Set<String> = [
            "http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
            "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR",
        ]
        var inherited = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("FEEDMILL_") && $0.key != "SOURCE_DATE_EPOCH" && !fetching.contains($0.key)
        }
        // No configuration file a test did not give: a real /etc/feedmill/feedmill.toml (or one
        // in ~/.config) on a developer's machine must not steer a test. A test that gives
        // FEEDMILL_CONFIG (an empty value: the search path) or --config decides for itself.
        inherited["FEEDMILL_CONFIG"] = "none"
        inherited.merge(environment) { $1 }
        process.environment = inherited
        process.standardOutput = captureOutput ? Pipe() : FileHandle.nullDevice
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Runs to completion: exit status, stdout and stderr.
    public func runCapturing(
        _ arguments: [String], environment: [String: String] = [:], as user: (uid: UInt32, gid: UInt32)? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try start(arguments, environment: environment, captureOutput: true, as: user)
        let output = Output(process)
        process.waitUntilExit()
        return (process.terminationStatus, output.stdout(), output.stderr())
    }

    /// Runs to completion: exit status and stderr.
    public func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = try start(arguments)
        let stderr = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }
}

/// Drains a process's pipes on background threads, so a chatty process never blocks on a full pipe.
///
/// `@unchecked Sendable`: each of `out` and `err` is written by one reader thread only, and
/// read only after `group.wait()`, which orders the write before the read.
public final class Output: @unchecked Sendable {
    private var out = Data(), err = Data()
    private let group = DispatchGroup()

    public init(_ process: Process) {
        for (pipe, isError) in [(process.standardOutput as? Pipe, false), (process.standardError as? Pipe, true)] {
            guard let pipe else { continue }
            group.enter()
            DispatchQueue.global().async { [self] in
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                if isError { err = data } else { out = data }
                group.leave()
            }
        }
    }

    public func stdout() -> String { group.wait(); return String(decoding: out, as: UTF8.self) }
    public func stderr() -> String { group.wait(); return String(decoding: err, as: UTF8.self) }
}

/// Any program run to completion with its output captured (a shell, `unshare`, a script),
/// the one way the tests do it: exit status, standard output, standard error.
/// - Parameter environment: the whole environment; nil inherits the test's.
public func runToCompletion(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let directory { process.currentDirectoryURL = directory }
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    let output = Output(process)
    process.waitUntilExit()
    return (process.terminationStatus, output.stdout(), output.stderr())
}
