import FeedFetching
import Foundation
import TestSupport
import Testing

@Suite("HTTPFetcher against a real server on 127.0.0.1")
struct HTTPFetcherTests {
    @Test func fetchesABodyWithItsHeaders() throws {
        let server = try TestHTTPServer { _ in
            .init(headers: [("Content-Type", "application/rss+xml; charset=ISO-8859-1"), ("ETag", "\"v1\""), ("Last-Modified", "Tue, 21 Apr 2009 23:32:00 GMT")], body: Array("<rss/>".utf8))
        }
        let document = try HTTPFetcher().fetch(server.baseURL + "/feed")
        #expect(document.status == 200)
        #expect(document.body == Array("<rss/>".utf8))
        #expect(document.charset == "ISO-8859-1")
        #expect(document.etag == "\"v1\"")
        #expect(document.lastModified == "Tue, 21 Apr 2009 23:32:00 GMT")
        #expect(document.finalURL == server.baseURL + "/feed")
        #expect(server.requests.first?.headers["user-agent"]?.hasPrefix("Feedmill/") == true)
    }

    @Test func followsRedirectsAndReportsTheFinalURL() throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/a": return .init(status: 301, headers: [("Location", "/b")])
            case "/b": return .init(status: 302, headers: [("Location", "/final")])
            default: return .init(contentType: "text/xml", body: "<rss/>")
            }
        }
        let document = try HTTPFetcher().fetch(server.baseURL + "/a")
        #expect(document.finalURL == server.baseURL + "/final")
        #expect(server.requests.map(\.path) == ["/a", "/b", "/final"])
    }

    @Test func aRedirectLoopIsAClearError() throws {
        let server = try TestHTTPServer { request in
            .init(status: 302, headers: [("Location", request.path == "/x" ? "/y" : "/x")])
        }
        #expect { try HTTPFetcher().fetch(server.baseURL + "/x") } throws: { error in
            (error as? FetchError)?.kind == .tooManyRedirects
        }
    }

    @Test func anErrorStatusIsAnErrorWithItsStatus() throws {
        let server = try TestHTTPServer { _ in .init(status: 404, contentType: "text/html", body: "nope") }
        #expect(throws: FetchError(kind: .httpStatus, url: server.baseURL + "/", message: "HTTP status 404", status: 404)) {
            try HTTPFetcher().fetch(server.baseURL + "/")
        }
    }

    @Test func gzipIsDecoded() throws {
        let body = Array(String(repeating: "<item>gzip</item>", count: 100).utf8)
        let compressed = try gzipped(body)
        let server = try TestHTTPServer { request in
            let accepts = request.headers["accept-encoding"]?.contains("gzip") == true
            return .init(headers: accepts ? [("Content-Encoding", "gzip")] : [], body: accepts ? compressed : body)
        }
        let document = try HTTPFetcher().fetch(server.baseURL + "/")
        #expect(document.body == body)
        #expect(server.requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test(arguments: [false, true])
    func aBodyOverTheLimitIsRefused(closeDelimited: Bool) throws {
        let server = try TestHTTPServer { _ in
            .init(body: [UInt8](repeating: 65, count: 10_000), chunkSize: closeDelimited ? 1000 : nil)
        }
        var configuration = FetchConfiguration()
        configuration.maxBodyBytes = 4096
        #expect { try HTTPFetcher(configuration: configuration).fetch(server.baseURL + "/") } throws: { error in
            (error as? FetchError)?.kind == .tooLarge
        }
    }

    @Test func aDribblingServerIsCutOff() throws {
        let server = try TestHTTPServer { _ in
            .init(body: [UInt8](repeating: 65, count: 100), chunkSize: 1, chunkDelay: 0.5)
        }
        var configuration = FetchConfiguration()
        configuration.lowSpeedLimit = 1000
        configuration.lowSpeedTime = 1
        let start = ContinuousClock.now
        #expect { try HTTPFetcher(configuration: configuration).fetch(server.baseURL + "/") } throws: { error in
            (error as? FetchError)?.kind == .timeout
        }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func aRefusedConnectionIsAConnectError() throws {
        let server = try TestHTTPServer { _ in .init() }
        let url = server.baseURL + "/"
        server.stop()
        #expect { try HTTPFetcher().fetch(url) } throws: { error in
            (error as? FetchError)?.kind == .connect
        }
    }

    @Test func fileURLsAreRefusedUnlessAllowed() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("feed.xml", "<rss/>")
        #expect { try HTTPFetcher().fetch("file://" + path) } throws: { error in
            (error as? FetchError)?.kind == .unsupportedScheme
        }
        var configuration = FetchConfiguration()
        configuration.allowFileURLs = true
        #expect(try HTTPFetcher(configuration: configuration).fetch("file://" + path).body == Array("<rss/>".utf8))
    }
}
