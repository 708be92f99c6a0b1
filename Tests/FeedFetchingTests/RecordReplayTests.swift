import FeedBasics
import FeedFetching
import Foundation
import TestSupport
import Testing

@Suite("Record and replay: runs without the network")
struct RecordReplayTests {
    /// A feed with an ETag that answers a matching If-None-Match with 304, a 404, and a 503
    /// with Retry-After; counts requests so a replay can be shown to send none.
    /// `@unchecked Sendable`: `requests` is only touched under `lock`; `body` is immutable.
    final class Origin: @unchecked Sendable {
        let lock = NSLock()
        var requests = 0
        let body = Array("<rss version=\"2.0\"><channel><title>Recorded</title><item><guid>1</guid></item></channel></rss>".utf8)

        func server() throws -> TestHTTPServer {
            try TestHTTPServer { [self] request in
                lock.withLock { requests += 1 }
                switch request.path {
                case "/feed", "/feed?copy":
                    if request.headers["if-none-match"] == "\"v1\"" { return .init(status: 304, headers: [("ETag", "\"v1\"")]) }
                    return .init(headers: [("Content-Type", "application/rss+xml"), ("ETag", "\"v1\""), ("Cache-Control", "max-age=600")], body: body)
                case "/busy":
                    return .init(status: 503, headers: [("Retry-After", "120")])
                case "/moved":
                    return .init(status: 301, headers: [("Location", "/feed")])
                default:
                    return .init(status: 404)
                }
            }
        }
    }

    private func configuration(_ mode: RecordingMode?) -> FetchConfiguration {
        var configuration = FetchConfiguration()
        configuration.networkPolicy = .allowAll
        configuration.recording = mode
        return configuration
    }

    private func result(_ fetcher: HTTPFetcher, _ request: FetchRequest) -> Result<FetchOutcome, FetchError> {
        do throws(FetchError) {
            return .success(try fetcher.fetch(request))
        } catch {
            return .failure(error)
        }
    }

    /// What must be the same live and replayed: everything but timing and byte counts.
    private func comparable(_ result: Result<FetchOutcome, FetchError>) -> String {
        switch result {
        case .success(let outcome):
            var response = outcome.response
            response.duration = 0
            response.bytesReceived = 0
            return "\(outcome)".replacingOccurrences(of: "\(outcome.response)", with: "\(response)")
        case .failure(let error):
            return "\(error.kind) \(error.message) \(error.status.map(String.init) ?? "-") \(error.retryAfter.map(String.init) ?? "-")"
        }
    }

    @Test func aReplayGivesTheRecordedAnswersWithNoNetwork() throws {
        let origin = Origin()
        let server = try origin.server()
        let directory = try TemporaryDirectory()
        let recorder = HTTPFetcher(configuration: configuration(.record(directory: directory.url.path)))
        let requests = [
            FetchRequest(url: server.baseURL + "/feed"),
            FetchRequest(url: server.baseURL + "/feed", etag: "\"v1\""),
            FetchRequest(url: server.baseURL + "/moved"),
            FetchRequest(url: server.baseURL + "/missing"),
            FetchRequest(url: server.baseURL + "/busy"),
        ]
        let live = requests.map { result(recorder, $0) }
        let sentLive = origin.lock.withLock { origin.requests }
        #expect(sentLive == 6)

        let player = HTTPFetcher(configuration: configuration(.replay(directory: directory.url.path)))
        let replayed = requests.map { result(player, $0) }
        #expect(origin.lock.withLock { origin.requests } == sentLive)
        #expect(replayed.map(comparable) == live.map(comparable))
        // Spot checks, so that "equal" cannot mean "equally empty".
        guard case .success(.fetched(let first)) = replayed[0] else { Issue.record("expected a body"); return }
        #expect(first.body == origin.body)
        #expect(first.etag == "\"v1\"")
        guard case .success(.notModified(let second)) = replayed[1] else { Issue.record("expected a 304"); return }
        #expect(second.status == 304)
        guard case .success(.fetched(let moved)) = replayed[2] else { Issue.record("expected the redirect followed"); return }
        #expect(moved.redirects.map(\.status) == [301])
        guard case .failure(let busy) = replayed[4] else { Issue.record("expected a failure"); return }
        #expect(busy.status == 503 && busy.retryAfter == 120)
    }

    @Test func aRequestNeverRecordedFailsClearly() throws {
        let directory = try TemporaryDirectory()
        let player = HTTPFetcher(configuration: configuration(.replay(directory: directory.url.path)))
        let error = fetchError { _ = try player.fetch(FetchRequest(url: "https://example.org/feed.xml", etag: "\"x\"")) }
        #expect(error?.kind == .notRecorded)
        #expect(error?.message == "no recording of GET https://example.org/feed.xml (If-None-Match: \"x\") in \(directory.url.path)")
    }

    @Test func bodiesAreStoredRawAndOnceByContent() throws {
        let origin = Origin()
        let server = try origin.server()
        let directory = try TemporaryDirectory()
        let recorder = HTTPFetcher(configuration: configuration(.record(directory: directory.url.path)))
        _ = try recorder.fetch(FetchRequest(url: server.baseURL + "/feed"))
        _ = try recorder.fetch(FetchRequest(url: server.baseURL + "/feed?copy"))
        let bodies = try FileManager.default.contentsOfDirectory(atPath: directory.url.path + "/bodies")
        #expect(bodies == [SHA256.hexDigest(origin.body)])
        // The recorded bytes are the served bytes, so a replay parses them again from scratch.
        #expect(FileManager.default.contents(atPath: directory.url.path + "/bodies/" + bodies[0]) == Data(origin.body))
        let exchanges = try FileManager.default.contentsOfDirectory(atPath: directory.url.path + "/exchanges")
        #expect(exchanges.count == 2)
    }

    @Test func recordingTheSameAnswersTwiceGivesTheSameFiles() throws {
        let origin = Origin()
        let server = try origin.server()
        var snapshots: [[String: Data]] = []
        for _ in 0..<2 {
            let directory = try TemporaryDirectory()
            let recorder = HTTPFetcher(configuration: configuration(.record(directory: directory.url.path)))
            _ = try recorder.fetch(FetchRequest(url: server.baseURL + "/feed"))
            var files: [String: Data] = [:]
            let root = directory.url.path
            for path in FileManager.default.subpaths(atPath: root) ?? [] {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    files[path] = FileManager.default.contents(atPath: root + "/" + path)
                }
            }
            snapshots.append(files)
        }
        #expect(snapshots[0].count == 2)
        #expect(snapshots[0] == snapshots[1])
    }
}
