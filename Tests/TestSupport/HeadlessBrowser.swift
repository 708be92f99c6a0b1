import Foundation

/// Debian's chromium, driven headless by `Scripts/check-page-in-browser` over the DevTools
/// protocol, for tests that must see a page as a person does: its width, its colour scheme,
/// axe-core's accessibility findings. `Scripts/setup-debian` installs chromium and axe-core;
/// where either is missing the test is skipped and says why, except where it is required
/// (`CI` or `FEEDMILL_REQUIRE_BROWSER` set, as `.ci/run` does): there it runs and fails.
public enum HeadlessBrowser {
    /// What the script measured for one width and colour scheme.
    public struct Measurement: Decodable, Sendable {
        public struct Violation: Decodable, Sendable {
            public var id: String
            public var impact: String?
            public var help: String
            public var count: Int
            public var targets: [[String]]
        }
        public var width: Int
        public var scheme: String
        public var innerWidth: Int
        public var scrollWidth: Int
        public var scrollHeight: Int
        /// The body's computed `background-color`, `rgb(r, g, b)`.
        public var background: String
        public var color: String
        /// `data-feed` of the first table rows in `<main>`, in document order (nil for a row without one).
        public var rows: [String?]
        public var rowStates: [String?]
        public var landmarks: [String]
        /// `<time>` elements laid out on more than one line.
        public var wrappedTimes: Int
        public var lang: String
        /// axe-core's violations (nil when it did not run).
        public var axe: [Violation]?
    }

    public struct Report: Decodable, Sendable {
        public var chromium: String
        public var results: [Measurement]
    }

    public enum Unavailable: Error, CustomStringConvertible {
        case toolMissing(String)
        case failed(String)

        public var description: String {
            switch self {
            case .toolMissing(let what): "no headless browser: \(what) (Scripts/setup-debian installs it)"
            case .failed(let why): "Scripts/check-page-in-browser failed: \(why)"
            }
        }
    }

    /// Whether browser tests must run here even without chromium (and then fail): under CI
    /// (`CI` set to anything but `0`/`false`) or with `FEEDMILL_REQUIRE_BROWSER=1`.
    public static var isRequired: Bool { TestRequirement.isRequired(by: "FEEDMILL_REQUIRE_BROWSER") }

    /// For `.enabled(if:)`.
    public static var shouldRun: Bool { isRequired || (chromium() != nil && axeScript() != nil) }

    /// `FEEDMILL_TEST_CHROMIUM`, else `chromium` on `PATH`; nil when that is no executable file.
    public static func chromium() -> String? {
        if let chosen = ProcessInfo.processInfo.environment["FEEDMILL_TEST_CHROMIUM"], !chosen.isEmpty {
            return FileManager.default.isExecutableFile(atPath: chosen) ? chosen : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/chromium" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// axe-core's `axe.min.js`: `FEEDMILL_TEST_AXE`, else where `Scripts/setup-debian` puts it.
    public static func axeScript() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["FEEDMILL_TEST_AXE"], !chosen.isEmpty { return FileManager.default.fileExists(atPath: chosen) ? chosen : nil }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        let lib = "\(cache)/feedmill/axe-playwright-python-0.1.8/lib"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib))?.filter { $0.hasPrefix("python3") }.sorted() ?? []
        return versions.map { "\(lib)/\($0)/site-packages/axe_playwright_python/axe.min.js" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Opens `url` at each width in each scheme and returns what the page measured, with
    /// axe-core's findings. `openDetails` opens every `<details>` first.
    public static func measure(
        _ url: String, widths: [Int], schemes: [String] = ["light", "dark"], rows: Int = 61, openDetails: Bool = false
    ) throws -> Report {
        guard let chromium = chromium() else { throw Unavailable.toolMissing("chromium not found") }
        guard let axe = axeScript() else { throw Unavailable.toolMissing("axe-core (axe.min.js) not found") }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        var arguments = [repository.appendingPathComponent("Scripts/check-page-in-browser").path, "--url", url, "--chromium", chromium,
            "--axe", axe, "--rows", String(rows)]
        arguments += widths.flatMap { ["--width", String($0)] } + schemes.flatMap { ["--scheme", $0] }
        if openDetails { arguments.append("--open-details") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both while it runs: a pipe left unread fills up and stops the script.
        let errorData = Locked(Data())
        let reader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { Thread.sleep(forTimeInterval: 0.01) }
        guard process.terminationStatus == 0 else {
            throw Unavailable.failed("exit status \(process.terminationStatus): \(String(decoding: errorData.value, as: UTF8.self).suffix(2_000))")
        }
        do {
            return try JSONDecoder().decode(Report.self, from: data)
        } catch {
            throw Unavailable.failed("unreadable output: \(error): \(String(decoding: data.prefix(500), as: UTF8.self))")
        }
    }

    /// A page left open in chromium while the test acts: its own script does the work (an
    /// `EventSource` on rss-serve's `/events`), and ``result()`` waits until `until` is true in
    /// it, then gives the JSON of `value`.
    public final class Watch {
        let process = Process()
        let output: String
        let errors: String

        init(_ url: String, until: String, value: String, timeout: Double) throws {
            guard let chromium = HeadlessBrowser.chromium() else { throw Unavailable.toolMissing("chromium not found") }
            let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
            let scratch = FileManager.default.temporaryDirectory.path + "/feedmill-browser-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            output = scratch + ".out"
            errors = scratch + ".err"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            _ = FileManager.default.createFile(atPath: errors, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", repository.appendingPathComponent("Scripts/check-page-in-browser").path, "--url", url, "--chromium", chromium,
                "--wait-for", until, "--value", value, "--timeout", String(timeout)]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            try process.run()
        }

        /// The page's `value`, once `until` held (or the script's failure).
        public func result() throws -> Data {
            process.waitUntilExit()
            defer {
                try? FileManager.default.removeItem(atPath: output)
                try? FileManager.default.removeItem(atPath: errors)
            }
            guard process.terminationStatus == 0 else {
                let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                throw Unavailable.failed("exit status \(process.terminationStatus): \(said.suffix(2_000))")
            }
            let data = FileManager.default.contents(atPath: output) ?? Data()
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let value = object["value"] else {
                throw Unavailable.failed("unreadable output: \(String(decoding: data.prefix(500), as: UTF8.self))")
            }
            return try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        }

        deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
    }

    public static func watch(_ url: String, until: String, value: String, timeout: Double = 30) throws -> Watch {
        try Watch(url, until: until, value: value, timeout: timeout)
    }

    /// A value written once by a reader thread. `@unchecked Sendable`: both fields are only
    /// touched under `lock`.
    private final class Locked: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Data
        private var done = false
        init(_ value: Data) { stored = value }
        func set(_ value: Data) { lock.withLock { stored = value; done = true } }
        var isSet: Bool { lock.withLock { done } }
        var value: Data { lock.withLock { stored } }
    }
}
