import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// The health page in Debian's chromium, headless, as the issue asks: 3,000 feeds of which 60
/// fail, published, served over HTTP on 127.0.0.1, opened at 1280 and 390 px in the light and
/// the dark scheme. No horizontal overflow, the 60 failing feeds are the first rows, the dark
/// scheme is honoured, and axe-core finds nothing serious or critical. Skipped where chromium
/// or axe-core is missing, except where required (CI, `FEEDMILL_REQUIRE_BROWSER=1`).
@Suite("health page in a browser", .serialized)
struct HealthPageBrowserTests {
    @Test(.enabled(if: HeadlessBrowser.shouldRun, "chromium or axe-core is not installed (Scripts/setup-debian installs them)"))
    func threeThousandFeedsWithSixtyFailingReadWellOnADesktopAndAPhone() throws {
        var random = SeededGenerator.announced()
        let clock = ContinuousClock(), started = clock.now
        let catalog = try HealthPageCatalog(count: 3_000, failing: 60, random: &random)
        let built = clock.now
        let page = try catalog.publishPage()
        let published = clock.now
        // To look at the page (or measure another Feedmill's on the same catalog): where to copy it.
        if let copy = ProcessInfo.processInfo.environment["FEEDMILL_HEALTH_PAGE_COPY"], !copy.isEmpty {
            try page.write(toFile: copy, atomically: true, encoding: .utf8)
            try FileManager.default.copyItem(atPath: catalog.publish.harness.directory.url.path, toPath: copy + ".data")
        }
        let server = try StaticDirectoryServer(directory: catalog.publish.outPath)
        defer { server.stop() }
        let report = try HeadlessBrowser.measure(server.baseURL + "index.html", widths: [1280, 390])
        print("health page: catalog \(built - started), publish \(published - built), browser \(clock.now - published)")
        print("health page: \(report.chromium); " + report.results.map { "\($0.width) px \($0.scheme): \($0.scrollHeight) px tall" }.joined(separator: ", "))
        #expect(report.results.count == 4)
        for result in report.results {
            let at = "\(result.width) px, \(result.scheme)"
            #expect(result.innerWidth == result.width, "\(at)")
            #expect(result.scrollWidth <= result.innerWidth, "\(at): the page scrolls sideways (\(result.scrollWidth) px)")
            #expect(result.rows.prefix(60).compactMap { $0.flatMap { Int64($0) } } == catalog.failing, "\(at): failing feeds first")
            #expect(result.rowStates.prefix(60).allSatisfy { $0 == "failing" }, "\(at)")
            #expect(result.landmarks == ["header", "nav", "main", "footer"], "\(at)")
            #expect(result.lang == "en")
            #expect(result.wrappedTimes == 0, "\(at): a date wraps mid-value")
            // The issue's page was 181,000 px tall; the summary, 60 failing feeds, 50 entries and a
            // closed list of the rest measure 12,000–21,000 px here.
            #expect(result.scrollHeight < 25_000, "\(at): \(result.scrollHeight) px tall")
            let luminance = try #require(Self.luminance(result.background), "\(at): \(result.background)")
            if result.scheme == "dark" {
                #expect(luminance < 0.05, "\(at): background \(result.background) is not dark")
            } else {
                #expect(luminance > 0.9, "\(at): background \(result.background) is not light")
            }
            let axe = try #require(result.axe)
            let serious = axe.filter { $0.impact == "serious" || $0.impact == "critical" }
            #expect(serious.isEmpty, "\(at): \(serious.map { "\($0.id) (\($0.impact ?? "")): \($0.help), \($0.count)× e.g. \($0.targets)" })")
        }
    }

    @Test func aTransparentBackgroundIsNoScheme() {
        #expect(Self.luminance("rgba(0, 0, 0, 0)") == nil)
        #expect(Self.luminance("rgb(255, 255, 255)") == 1)
        #expect((Self.luminance("rgb(18, 20, 23)") ?? 1) < 0.01)
    }

    @Test(.enabled(if: HeadlessBrowser.shouldRun, "chromium or axe-core is not installed (Scripts/setup-debian installs them)"))
    func theFullListOpenedOnAPhoneScrollsInsideItsOwnBox() throws {
        var random = SeededGenerator.announced()
        let catalog = try HealthPageCatalog(count: 600, failing: 20, random: &random)
        _ = try catalog.publishPage()
        let server = try StaticDirectoryServer(directory: catalog.publish.outPath)
        defer { server.stop() }
        let report = try HeadlessBrowser.measure(server.baseURL + "index.html", widths: [390], schemes: ["dark"], openDetails: true)
        for result in report.results {
            #expect(result.scrollWidth <= result.innerWidth, "\(result.scrollWidth) px wide")
            #expect(result.wrappedTimes == 0)
            let serious = (result.axe ?? []).filter { $0.impact == "serious" || $0.impact == "critical" }
            #expect(serious.isEmpty, "\(serious.map { "\($0.id): \($0.help) \($0.targets)" })")
        }
    }

    /// The relative luminance (WCAG) of `rgb(r, g, b)` or `rgba(…)`; nil for a transparent
    /// colour (a page that sets no background of its own has not chosen a scheme).
    static func luminance(_ color: String) -> Double? {
        let numbers = color.split { !$0.isNumber && $0 != "." }.compactMap { Double($0) }
        guard numbers.count >= 3, numbers.count == 3 || numbers[3] > 0 else { return nil }
        let channels = numbers.prefix(3).map { value -> Double in
            let c = value / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }
}
