import Foundation
import TestSupport
import Testing

/// contrib/prometheus/feedmill.rules.yml, the example alert rules: valid for Prometheus, and
/// firing when they should on series shaped as Feedmill's metrics files are
/// (contrib/prometheus/feedmill.rules.test.yml).
@Suite("The example alert rules", .enabled(if: Promtool.shouldRun, "promtool is missing: Scripts/setup-debian installs it"))
struct PrometheusRulesTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("contrib/prometheus").path

    @Test func theRulesPassPromtoolCheckRules() throws {
        let result = try #require(try Promtool.run(["check", "rules", "feedmill.rules.yml"], in: Self.directory))
        #expect(result.succeeded, "\(result.output)")
        #expect(result.output.contains("SUCCESS: 6 rules found"), "\(result.output)")
    }

    @Test func theRulesFireWhenTheirUnitTestsSay() throws {
        let result = try #require(try Promtool.run(["test", "rules", "feedmill.rules.test.yml"], in: Self.directory))
        #expect(result.succeeded, "\(result.output)")
    }

    /// The rules name metrics Feedmill writes: each `feedmill_…` name in them is one of the
    /// documented metrics (docs/operating.md lists them).
    @Test func theRulesUseOnlyDocumentedMetrics() throws {
        let rules = try String(contentsOfFile: Self.directory + "/feedmill.rules.yml", encoding: .utf8)
        let docs = try String(contentsOfFile: Self.directory + "/../../docs/operating.md", encoding: .utf8)
        let names = Set(rules.matches(of: /feedmill_[a-z_]+/).map { String($0.output) })
        #expect(names.count >= 6)
        for name in names { #expect(docs.contains("`\(name)"), "\(name) is not in docs/operating.md") }
    }
}
