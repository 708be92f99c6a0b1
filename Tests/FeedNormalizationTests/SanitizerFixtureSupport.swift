import Foundation
import Testing

@testable import FeedNormalization

/// The fixtures under Fixtures/ and the independent HTML5 check (Scripts/check-inert-html).
enum SanitizerFixtures {
    /// The sanitiser every fixture goes through: an entry with a permalink and an id, as the
    /// normaliser builds it.
    static let sanitizer = HTMLSanitizer(
        baseURL: "https://blog.example/posts/", permalink: "https://blog.example/posts/footnotes",
        entryID: "https://blog.example/posts/footnotes")

    static func directory(_ name: String) throws -> URL {
        let resources = try #require(Bundle.module.resourceURL)
        return resources.appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    static func files(in name: String, withExtension suffix: String) throws -> [URL] {
        let directory = try directory(name)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(suffix) }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// What html5lib, parsing each fragment as a browser would, finds that could run or leave
    /// the web: one line per problem.
    struct InertCheck: Decodable {
        struct Violation: Decodable {
            var name: String
            var problem: String
            var html: String
        }
        var checked: Int
        var violations: [Violation]
    }

    static func checkInert(_ fragments: [(name: String, html: String)]) throws -> InertCheck {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("feedmill-inert-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        let items = fragments.map { ["name": $0.name, "html": $0.html] }
        try JSONSerialization.data(withJSONObject: items).write(to: input)
        let process = Process()
        // Debian's Python, which has python3-html5lib (Scripts/setup-debian); another python3
        // on PATH (pyenv) may not.
        let debianPython = "/usr/bin/python3"
        process.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: debianPython) ? debianPython : "/usr/bin/env")
        process.arguments = (process.executableURL?.path == debianPython ? [] : ["python3"])
            + [repository.appendingPathComponent("Scripts/check-inert-html").path, input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "Scripts/check-inert-html failed (is python3-html5lib installed? Scripts/setup-debian)")
        return try JSONDecoder().decode(InertCheck.self, from: data)
    }
}
