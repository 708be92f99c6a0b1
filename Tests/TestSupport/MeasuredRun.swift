import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A command run to its end with what the kernel measured of it alone: its peak resident
/// memory (`wait4`'s rusage, not the test process's nor another child's) and its wall time.
///
/// Through a small python3 parent: Linux carries a process's peak RSS across `execve` from
/// the memory it was forked with, so a child spawned straight from the test process (hundreds
/// of MB) would report the test's peak. Forked from python (~10 MB), it reports its own.
public struct MeasuredRun: Sendable {
    /// The exit status, or nil when a signal ended it (`signal` says which).
    public let status: Int32?
    public let signal: Int32?
    public let peakResidentBytes: Int
    public let seconds: Double
    public let stdout: String
    public let stderr: String

    /// Runs `path` with `arguments` and exactly `environment` (nothing inherited).
    public static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> MeasuredRun {
        let scratch = try TemporaryDirectory()
        let outPath = scratch.url.appendingPathComponent("out").path, errPath = scratch.url.appendingPathComponent("err").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let measured = scratch.url.appendingPathComponent("rusage").path
        let script = """
            import os, sys
            os.closerange(3, 65536)
            pid = os.fork()
            if pid == 0:
                os.execve(sys.argv[2], sys.argv[2:], os.environ)
            _, status, usage = os.wait4(pid, 0)
            open(sys.argv[1], "w").write("%d %d" % (status, usage.ru_maxrss))
            """
        let argv = (["/usr/bin/python3", "-c", script, measured, path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawn(&pid, "/usr/bin/python3", &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnFailed(path: path, errno: spawned) }
        var parentStatus: Int32 = 0
        while waitpid(pid, &parentStatus, 0) < 0 {
            guard errno == EINTR else { throw SpawnFailed(path: path, errno: errno) }
        }
        let seconds = Date().timeIntervalSince(started)
        let numbers = ((try? String(contentsOfFile: measured, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
        guard numbers.count == 2 else { throw SpawnFailed(path: path, errno: ECHILD) }
        let status = numbers[0]
        let usage = (ru_maxrss: Int(numbers[1]), ())
        let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        return MeasuredRun(
            status: signalled ? nil : (status >> 8) & 0xff, signal: signalled ? status & 0x7f : nil,
            peakResidentBytes: Int(usage.ru_maxrss) * 1024, seconds: seconds,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    public struct SpawnFailed: Error, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public var description: String { "\(path) cannot be started: \(String(cString: strerror(errno)))" }
    }
}
