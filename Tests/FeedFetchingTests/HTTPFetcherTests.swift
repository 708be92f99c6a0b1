import FeedBasics
import FeedFetching
import Foundation
import TestSupport
import Testing

/// Tests talk to a real server on 127.0.0.1, so they allow private networks explicitly.
func localConfiguration(_ adjust: (inout FetchConfiguration) -> Void = { _ in }) -> FetchConfiguration {
    var configuration = FetchConfiguration()
    configuration.networkPolicy = .allowAll
    adjust(&configuration)
    return configuration
}

func fetchError(_ body: () throws -> Void) -> FetchError? {
    do {
        try body()
        return nil
    } catch let error as FetchError {
        return error
    } catch {
        return nil
    }
}

@Suite("HTTPFetcher: one feed, HTTP done right")
struct HTTPFetcherTests {
    let fetcher = HTTPFetcher(configuration: localConfiguration())

    @Test func fetchesABodyWithItsValidatorsAndCachingHints() throws {
        let server = try TestHTTPServer { _ in
            .init(
                headers: [
                    ("Content-Type", "application/rss+xml; charset=ISO-8859-1"), ("ETag", "\"v1\""),
                    ("Last-Modified", "Tue, 21 Apr 2009 23:32:00 GMT"), ("Cache-Control", "max-age=3600"),
                    ("Expires", "Wed, 22 Apr 2009 00:32:00 GMT"),
                ],
                body: Array("<rss/>".utf8))
        }
        let outcome = try fetcher.fetch(server.baseURL + "/feed")
        guard case .fetched(let response) = outcome else {
            Issue.record("expected a body, got \(outcome)")
            return
        }
        #expect(response.status == 200)
        #expect(response.body == Array("<rss/>".utf8))
        #expect(response.bodyHash == SHA256.hexDigest(Array("<rss/>".utf8)))
        #expect(response.charset == "ISO-8859-1")
        #expect(response.etag == "\"v1\"")
        #expect(response.lastModified == "Tue, 21 Apr 2009 23:32:00 GMT")
        #expect(response.cacheControl == "max-age=3600")
        #expect(response.expires == "Wed, 22 Apr 2009 00:32:00 GMT")
        #expect(response.finalURL == server.baseURL + "/feed")
        #expect(response.redirects.isEmpty)
        #expect(response.bytesReceived > 6)
        let request = try #require(server.requests.first)
        #expect(request.headers["user-agent"] == "Feedmill/\(FetchConfiguration.version) (+\(FetchConfiguration.defaultContactURL))")
        #expect(request.headers["accept"]?.contains("application/rss+xml") == true)
        #expect(request.headers["if-none-match"] == nil)
    }

    @Test func aHugeResponseHeaderIsReportedAsTooLargeNotOutOfMemory() throws {
        let server = try TestHTTPServer { _ in
            .init(headers: [("Content-Type", "application/rss+xml"), ("X-Padding", String(repeating: "a", count: 1 << 20))], body: Array("<rss/>".utf8))
        }
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/feed") }
        #expect(error?.kind == .tooLarge)
        #expect(error?.message.contains("response headers too large") == true, "\(String(describing: error))")
    }

    @Test func theContactURLIsInTheUserAgent() throws {
        let server = try TestHTTPServer { _ in .init(body: Array("<rss/>".utf8)) }
        let configured = HTTPFetcher(configuration: localConfiguration { $0.contactURL = "https://ops.example/feedmill" })
        _ = try configured.fetch(server.baseURL + "/")
        #expect(server.requests.first?.headers["user-agent"] == "Feedmill/\(FetchConfiguration.version) (+https://ops.example/feedmill)")
    }

    @Test func aMatchingETagGets304AsAnOutcome() throws {
        let server = try TestHTTPServer { request in
            request.headers["if-none-match"] == "\"v1\"" ? .init(status: 304, headers: [("ETag", "\"v1\"")]) : .init(headers: [("ETag", "\"v1\"")], body: Array("<rss/>".utf8))
        }
        let outcome = try fetcher.fetch(FetchRequest(url: server.baseURL + "/", etag: "\"v1\""))
        guard case .notModified(let response) = outcome else {
            Issue.record("expected notModified, got \(outcome)")
            return
        }
        #expect(response.status == 304)
        #expect(response.etag == "\"v1\"")
        #expect(response.body.isEmpty)
    }

    @Test func aMatchingLastModifiedGets304() throws {
        let stamp = "Tue, 21 Apr 2009 23:32:00 GMT"
        let server = try TestHTTPServer { request in
            request.headers["if-modified-since"] == stamp ? .init(status: 304) : .init(body: Array("<rss/>".utf8))
        }
        let outcome = try fetcher.fetch(FetchRequest(url: server.baseURL + "/", lastModified: stamp))
        guard case .notModified(let response) = outcome else {
            Issue.record("expected notModified, got \(outcome)")
            return
        }
        #expect(response.lastModified == stamp, "a 304 without validators keeps the ones sent")
        #expect(server.requests.first?.headers["if-modified-since"] == stamp)
    }

    @Test func a200WithTheSameBodyIsNotModified() throws {
        let body = Array("<rss><channel/></rss>".utf8)
        let server = try TestHTTPServer { _ in .init(body: body) }
        let unchanged = try fetcher.fetch(FetchRequest(url: server.baseURL + "/", previousBodyHash: SHA256.hexDigest(body)))
        guard case .notModified(let response) = unchanged else {
            Issue.record("expected notModified, got \(unchanged)")
            return
        }
        #expect(response.status == 200)
        let changed = try fetcher.fetch(FetchRequest(url: server.baseURL + "/", previousBodyHash: SHA256.hexDigest([1, 2, 3])))
        guard case .fetched = changed else {
            Issue.record("expected fetched, got \(changed)")
            return
        }
    }

    @Test func gzipIsDecoded() throws {
        let body = Array(String(repeating: "<item>gzip</item>", count: 100).utf8)
        let compressed = try gzipped(body)
        let server = try TestHTTPServer { request in
            let accepts = request.headers["accept-encoding"]?.contains("gzip") == true
            return .init(headers: accepts ? [("Content-Encoding", "gzip")] : [], body: accepts ? compressed : body)
        }
        let response = try fetcher.fetch(server.baseURL + "/").response
        #expect(response.body == body)
        #expect(response.bytesReceived < body.count, "the compressed size is what crossed the wire")
    }

    @Test func aGzipBombStopsAtTheLimit() throws {
        let bomb = try gzipped([UInt8](repeating: 0, count: 64 << 20))
        #expect(bomb.count < 200_000)
        let server = try TestHTTPServer { _ in .init(headers: [("Content-Encoding", "gzip")], body: bomb) }
        let limited = HTTPFetcher(configuration: localConfiguration { $0.maxBodyBytes = 1 << 20 })
        let error = fetchError { _ = try limited.fetch(server.baseURL + "/") }
        #expect(error?.kind == .tooLarge)
        #expect(error?.message == "body larger than 1048576 bytes")
    }

    @Test(arguments: [false, true])
    func aBodyOverTheLimitIsRefused(closeDelimited: Bool) throws {
        let server = try TestHTTPServer { _ in
            .init(body: [UInt8](repeating: 65, count: 10_000), chunkSize: closeDelimited ? 1000 : nil)
        }
        let limited = HTTPFetcher(configuration: localConfiguration { $0.maxBodyBytes = 4096 })
        #expect(fetchError { _ = try limited.fetch(server.baseURL + "/") }?.kind == .tooLarge)
    }

    @Test func goneIsAnOutcome() throws {
        let server = try TestHTTPServer { _ in .init(status: 410) }
        guard case .gone(let response) = try fetcher.fetch(server.baseURL + "/") else {
            Issue.record("expected gone")
            return
        }
        #expect(response.status == 410)
    }

    @Test func anErrorStatusIsAnErrorWithItsStatus() throws {
        let server = try TestHTTPServer { _ in .init(status: 404, contentType: "text/html", body: "nope") }
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/missing") }
        #expect(error == FetchError(kind: .httpStatus, url: server.baseURL + "/missing", message: "HTTP status 404", status: 404))
    }

    @Test("429 and 503 honour Retry-After in seconds", arguments: [429, 503])
    func retryAfterSeconds(status: Int) throws {
        let server = try TestHTTPServer { _ in .init(status: status, headers: [("Retry-After", "120")]) }
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/") }
        #expect(error?.kind == .httpStatus)
        #expect(error?.status == status)
        #expect(error?.retryAfter == 120)
        #expect(error?.message == "HTTP status \(status), retry after 120 s")
    }

    @Test func retryAfterAsAnHTTPDateIsMeasuredAgainstTheServersDate() throws {
        let server = try TestHTTPServer { _ in
            .init(status: 429, headers: [("Date", "Wed, 21 Oct 2015 07:28:00 GMT"), ("Retry-After", "Wed, 21 Oct 2015 07:33:00 GMT")])
        }
        #expect(fetchError { _ = try fetcher.fetch(server.baseURL + "/") }?.retryAfter == 300)
    }

    @Test func retryAfterIsCapped() throws {
        let server = try TestHTTPServer { _ in .init(status: 503, headers: [("Retry-After", "99999999")]) }
        let capped = HTTPFetcher(configuration: localConfiguration { $0.maxRetryAfter = 3600 })
        #expect(fetchError { _ = try capped.fetch(server.baseURL + "/") }?.retryAfter == 3600)
    }

    @Test func aDribblingServerIsCutOff() throws {
        let server = try TestHTTPServer { _ in
            .init(body: [UInt8](repeating: 65, count: 100), chunkSize: 1, chunkDelay: 0.5)
        }
        let impatient = HTTPFetcher(configuration: localConfiguration {
            $0.lowSpeedLimit = 1000
            $0.lowSpeedTime = 1
        })
        let start = ContinuousClock.now
        #expect(fetchError { _ = try impatient.fetch(server.baseURL + "/") }?.kind == .timeout)
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func aSlowServerHitsTheTotalTimeout() throws {
        let server = try TestHTTPServer { _ in .init(body: Array("<rss/>".utf8), delay: 3) }
        let hasty = HTTPFetcher(configuration: localConfiguration { $0.totalTimeout = 0.5 })
        #expect(fetchError { _ = try hasty.fetch(server.baseURL + "/") }?.kind == .timeout)
    }

    @Test func aRefusedConnectionIsAConnectError() throws {
        let server = try TestHTTPServer { _ in .init() }
        let url = server.baseURL + "/"
        server.stop()
        #expect(fetchError { _ = try fetcher.fetch(url) }?.kind == .connect)
    }

    @Test func fileURLsAreRefusedUnlessAllowed() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("feed.xml", "<rss/>")
        #expect(fetchError { _ = try fetcher.fetch("file://" + path) }?.kind == .unsupportedScheme)
        let withFiles = HTTPFetcher(configuration: localConfiguration { $0.allowFileURLs = true })
        #expect(try withFiles.fetch("file://" + path).response.body == Array("<rss/>".utf8))
    }

    /// An aborted transfer used to be logged with `duration=0.000` after seconds in flight.
    @Test func anInterruptedTransferCarriesTheTimeItTookAndItsStatus() throws {
        let server = try TestHTTPServer { _ in .init(body: [UInt8](repeating: 65, count: 100), chunkSize: 1, chunkDelay: 0.2) }
        let stop = StopSignal()
        let fetcher = HTTPFetcher(configuration: localConfiguration { $0.stop = stop })
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.2) { stop.raise(signal: SIGTERM) }
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/slow.xml") }
        #expect(error?.kind == .interrupted)
        #expect(error?.status == 200, "the status line had come in")
        #expect((error?.duration ?? 0) >= 1.2, "\(String(describing: error?.duration))")
    }
}
