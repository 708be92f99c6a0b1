import Foundation

/// Prometheus's `promtool` (Debian's `prometheus` package, installed by Scripts/setup-debian):
/// every metrics file a test writes goes through `promtool check metrics`, and the example
/// alert rules through `promtool check rules` and `promtool test rules`.
///
/// Where promtool is missing the checks are skipped (a test says so in its comment), except
/// where they are required: under CI (`CI` set) or with `FEEDMILL_REQUIRE_PROMTOOL=1`, as
/// `.ci/run` sets it; there a missing promtool fails the test.
public enum Promtool {
    public struct Result: Sendable {
        public var status: Int32
        /// Standard output and standard error together: what promtool found.
        public var output: String
        public var succeeded: Bool { status == 0 }
    }

    public enum Unavailable: Error, CustomStringConvertible {
        case missing

        public var description: String {
            "promtool is required here (CI or FEEDMILL_REQUIRE_PROMTOOL) but not on PATH: Scripts/setup-debian installs Debian's prometheus package"
        }
    }

    /// Whether the checks must run here even without promtool (and then fail).
    public static var isRequired: Bool { TestRequirement.isRequired(by: "FEEDMILL_REQUIRE_PROMTOOL") }

    /// promtool's path, if it is on PATH.
    public static var path: String? {
        let search = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return search.split(separator: ":").map { "\($0)/promtool" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// For `.enabled(if:)`: a test that is only about promtool runs where it is, or where it is
    /// required (and then fails without it).
    public static var shouldRun: Bool { isRequired || path != nil }

    /// Runs `promtool arguments` (standard input from `input`), in `directory` if given;
    /// `nil` when promtool is missing and not required.
    public static func run(_ arguments: [String], input: String? = nil, in directory: String? = nil) throws -> Result? {
        guard let path else {
            if isRequired { throw Unavailable.missing }
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: text, as: UTF8.self))
    }

    /// `promtool check metrics` on the file at `path`: its findings, empty when it passes
    /// (or when promtool is missing and not required).
    public static func problems(inMetricsFile path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let result = try run(["check", "metrics"], input: text) else { return "" }
        return result.succeeded ? "" : "promtool check metrics \(path) (status \(result.status)):\n\(result.output)\n\(text)"
    }
}
