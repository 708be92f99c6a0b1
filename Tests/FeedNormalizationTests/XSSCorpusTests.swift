import Foundation
import Testing

@testable import FeedNormalization

/// Public XSS vectors (Fixtures/xss/*.vectors, each file saying where it came from and its
/// license) through the sanitiser; the output is read by an independent HTML5 parser
/// (html5lib, Scripts/check-inert-html) as a browser reads it, and must hold nothing that runs:
/// no script, style, frame, form or SVG/MathML element, no `on*` attribute, no URL but
/// http(s), mailto links and the entry's own `#` anchors.
@Suite("sanitiser: public XSS vectors come out inert")
struct XSSCorpusTests {
    static func vectors() throws -> [(name: String, html: String)] {
        var vectors: [(name: String, html: String)] = []
        for file in try SanitizerFixtures.files(in: "xss", withExtension: ".vectors") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
                let vector = try JSONDecoder().decode(String.self, from: Data(line.utf8))
                vectors.append(("\(file.lastPathComponent):\(number + 1)", vector))
            }
        }
        return vectors
    }

    @Test func everyVectorComesOutInert() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count > 1_000, "the corpus is all there")
        // Twice: as the normaliser sanitises an entry (permalink, id), and with a base only.
        let plain = HTMLSanitizer(baseURL: "https://e.example/posts/1")
        let outputs = vectors.map { ($0.name, SanitizerFixtures.sanitizer.sanitize(html: $0.html)) }
            + vectors.map { ($0.name + " (base only)", plain.sanitize(html: $0.html)) }
        let check = try SanitizerFixtures.checkInert(outputs)
        #expect(check.checked == outputs.count)
        for violation in check.violations.prefix(20) {
            Issue.record("\(violation.name): \(violation.problem)\n  output: \(violation.html)")
        }
        #expect(check.violations.isEmpty, "\(check.violations.count) outputs are not inert")
        // Sanitising is stable: the output of the output is the output.
        for (name, output) in outputs.prefix(vectors.count) {
            #expect(SanitizerFixtures.sanitizer.sanitize(html: output) == output, "\(name)")
        }
    }

    /// The check is not vacuous: the vectors as they are, unsanitised, are mostly not inert.
    @Test func theCheckFindsTheVectorsThemselvesActive() throws {
        let vectors = try Self.vectors()
        let check = try SanitizerFixtures.checkInert(vectors)
        let flagged = Set(check.violations.map(\.name))
        #expect(flagged.count > vectors.count / 2, "only \(flagged.count) of \(vectors.count) raw vectors flagged")
        for problem in ["event handler onerror", "element <script>", "href: scheme 'javascript'", "foreign element"] {
            #expect(check.violations.contains { $0.problem.hasPrefix(problem) }, "\(problem)")
        }
    }
}
