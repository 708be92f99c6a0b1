import Foundation
import Testing

@testable import FeedNormalization

/// Benign content readers expect (Fixtures/benign/NAME.html) comes out as docs/normalisation.md
/// documents it (Fixtures/benign/NAME.expected.html), and inert.
@Suite("sanitiser: benign content kept as documented")
struct SanitizerFixtureTests {
    static let names = ["entities", "footnotes", "images", "mathml", "video"]

    @Test(arguments: names)
    func fixtureComesOutAsDocumented(name: String) throws {
        let directory = try SanitizerFixtures.directory("benign")
        let input = try String(contentsOf: directory.appendingPathComponent(name + ".html"), encoding: .utf8)
        let expected = try String(contentsOf: directory.appendingPathComponent(name + ".expected.html"), encoding: .utf8)
        let output = SanitizerFixtures.sanitizer.sanitize(html: input)
        // FEEDMILL_SANITIZER_OUTPUT=DIR writes what came out, to review before it becomes the expected file.
        if let directory = ProcessInfo.processInfo.environment["FEEDMILL_SANITIZER_OUTPUT"] {
            try (output + "\n").write(toFile: directory + "/" + name + ".expected.html", atomically: true, encoding: .utf8)
        }
        #expect(output + "\n" == expected, "\(name):\n\(output)")
        let check = try SanitizerFixtures.checkInert([(name, output)])
        #expect(check.violations.isEmpty, "\(check.violations.map(\.problem))")
    }

    @Test func everyFixtureIsListed() throws {
        let inputs = try SanitizerFixtures.files(in: "benign", withExtension: ".html").map(\.lastPathComponent)
            .filter { !$0.hasSuffix(".expected.html") }
        #expect(inputs.map { String($0.dropLast(5)) } == Self.names)
    }
}
