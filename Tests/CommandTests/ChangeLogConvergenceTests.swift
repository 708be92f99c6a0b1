import FeedPublishing
import Foundation
import PipelineTestSupport
import Synchronization
import TestSupport
import Testing

/// A publication reads only the feeds the catalog's change log names (issue 51). The promise
/// kept: an update killed at any point, with publications running beside it, never leaves a
/// committed change unpublished by the next plain `rss-publish`.
@Suite("rss-update killed anywhere beside rss-publish: no change left unpublished", .serialized)
struct ChangeLogConvergenceTests {
    private static let feeds = 12

    /// Each feed lists its entry of this round and of the one before, without validators: every
    /// round changes every feed.
    private final class Round: Sendable {
        let number = Mutex(0)
    }

    private static func server(round: Round) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            if request.path == "/list.opml" {
                let outlines = (1...feeds).map { "<outline text=\"Feed \($0)\" xmlUrl=\"/feed/\($0).xml\"/>" }.joined()
                return .init(contentType: "text/x-opml", body: "<opml version=\"2.0\"><body>\(outlines)</body></opml>")
            }
            guard let number = Int(request.path.dropFirst("/feed/".count).dropLast(".xml".count)) else { return .init(status: 404) }
            let now = round.number.withLock { $0 }
            let entries = [now, max(0, now - 1)].map { ("f\(number)-r\($0)", "Round \($0)", "https://site.example/\(number)/\($0)", nil as String?) }
            return .init(headers: [("Content-Type", "application/rss+xml")], body: Array(rss("Feed \(number)", items: entries).utf8), delay: 0.02)
        }
    }

    /// Feeds whose published items (the file the record names) are not those of their database.
    private static func unpublished(data: String, out: String, except refused: Set<Int> = []) throws -> [String] {
        let record = try PublicationReader.record(out)
        return try (1...feeds).filter { !refused.contains($0) }.compactMap { id -> String? in
            let query = "SELECT id FROM items ORDER BY id"
            let held = try sqlite(data + "/feed_\(id).sqlite", query)
            guard let entry = record.feeds.first(where: { $0.feedID == Int64(id) }) else { return "feed \(id): not published" }
            let published = try sqlite(out + "/" + entry.file, query)
            return held == published ? nil : "feed \(id): holds \(held.count) items, published \(published.count)"
        }
    }

    /// The feeds a publication said it did not publish.
    private static func refusedFeeds(_ said: String) -> Set<Int> {
        Set(said.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "feed "), let end = line.range(of: " not published") else { return nil }
            return Int(line[range.upperBound..<end.lowerBound])
        })
    }

    /// Every feed refused was refused for a hot journal, nothing else.
    private static func onlyHotJournals(_ said: String) -> Bool {
        let lines = said.split(separator: "\n").filter { $0.contains("not published") }
        return !lines.isEmpty && lines.allSatisfy { $0.contains("attempt to write a readonly database") }
    }

    @Test func updatesKilledAnywhereWithPublicationsBesideThemLeaveNoChangeUnpublished() throws {
        let round = Round()
        let server = try Self.server(round: round)
        let root = try TemporaryDirectory()
        let (data, out) = (root.url.path + "/data", root.url.path + "/publish")
        let options = ["--data-dir", data, "--allow-private-networks", "--concurrency", "2", "--quiet"]
        let update = Executable(name: "rss-update")
        let publish = Executable(name: "rss-publish")
        #expect(try Executable(name: "rss-create").runCapturing(["--opml", server.baseURL + "/list.opml"] + options).status == 0)
        #expect(try publish.runCapturing(["--data-dir", data, "--out", out]).status == 0)
        // How long a whole update takes here: the kills fall anywhere within it.
        round.number.withLock { $0 = 1 }
        let started = ContinuousClock.now
        #expect(try update.runCapturing(["--all"] + options).status == 0)
        let whole = max(0.05, (ContinuousClock.now - started) / .seconds(1))
        var generator = SeededGenerator.announced()
        var killed = 0
        for number in 2...9 {
            round.number.withLock { $0 = number }
            let updating = try update.start(["--all"] + options)
            let publishing = try publish.start(["--data-dir", data, "--out", out])
            Thread.sleep(forTimeInterval: Double.random(in: 0...whole, using: &generator))
            kill(updating.processIdentifier, SIGKILL)
            updating.waitUntilExit()
            publishing.waitUntilExit()
            if updating.terminationReason == .uncaughtSignal { killed += 1 }
            let said = (publishing.standardError as? Pipe).map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) } ?? ""
            // A feed whose write the kill cut short keeps a hot journal, which only a writer
            // rolls back: the publisher, which reads only, keeps its last good snapshot and says so.
            #expect(publishing.terminationStatus == 0 || Self.onlyHotJournals(said), "round \(number): a publication beside an update: \(said)")
        }
        #expect(killed >= 3, "most updates were really interrupted (\(killed) of 8)")
        // One plain publication: every change an update committed is published.
        // One plain publication: every change an update committed is published, but for a feed
        // the last kill left with a hot journal (refused, said, published after the next update).
        let caughtUp = try publish.runCapturing(["--data-dir", data, "--out", out])
        #expect(caughtUp.status == 0 || Self.onlyHotJournals(caughtUp.stderr), "\(caughtUp.stderr)")
        let refused = Self.refusedFeeds(caughtUp.stderr)
        let left = try Self.unpublished(data: data, out: out, except: refused)
        #expect(left.isEmpty, "\(left)")
        // And the plain runs after: an update settles what was left being written, and converges.
        round.number.withLock { $0 = 100 }
        #expect(try update.runCapturing(["--all"] + options).status == 0)
        #expect(try publish.runCapturing(["--data-dir", data, "--out", out]).status == 0)
        let leftAfter = try Self.unpublished(data: data, out: out)
        #expect(leftAfter.isEmpty, "\(leftAfter)")
        #expect(try sqlite(data + "/all_feeds.sqlite", "SELECT COUNT(*) FROM feed_changes WHERE writing <> 0") == [["0"]])
        #expect(PublicationReader.problems(out).isEmpty, "\(PublicationReader.problems(out))")
    }
}
