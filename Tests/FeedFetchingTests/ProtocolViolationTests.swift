import FeedFetching
import TestSupport
import Testing

/// Servers that break HTTP, each met over real TCP: the failure is the kind `protocol`, and its
/// message says what the server did.
@Suite("Protocol lies: servers that break HTTP")
struct ProtocolViolationTests {
    let fetcher = HTTPFetcher(configuration: localConfiguration())

    static func raw(_ head: String, body: String = "") -> [UInt8] {
        Array((head.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n" + body).utf8)
    }

    /// Taken as "not modified", a feed fetched for the first time looked healthy and was never
    /// fetched in full.
    @Test func a304ToARequestThatWasNotConditionalIsAFailure() throws {
        let server = try TestHTTPServer { _ in .init(status: 304) }
        let error = fetchError { _ = try fetcher.fetch(FetchRequest(url: server.baseURL + "/feed", previousBodyHash: "abc")) }
        #expect(error?.kind == .protocolViolation)
        #expect(error?.status == 304)
        #expect(error?.message.contains("answered 304 Not Modified to a request that was not conditional") == true, "\(String(describing: error))")
        // Conditional, it is still the outcome it always was.
        let conditional = try fetcher.fetch(FetchRequest(url: server.baseURL + "/feed", lastModified: "Tue, 21 Apr 2009 23:32:00 GMT"))
        guard case .notModified = conditional else {
            Issue.record("expected notModified, got \(conditional)")
            return
        }
    }

    /// libcurl 7.88 takes the last of two headers, or a list's first number, and reads on.
    @Test(arguments: [
        ("Content-Length: 5\nContent-Length: 6\n", "5 and 6"),
        ("Content-Length: 5, 6\n", "5 and 6"),
        ("Content-Length: 6\nContent-Length: 6, 12\n", "6 and 12"),
    ])
    func conflictingContentLengthsAreRefusedNamingTheValues(headers: String, named: String) throws {
        let server = try RawTestServer { _ in Self.raw("HTTP/1.1 200 OK\nContent-Type: application/rss+xml\n" + headers, body: "<rss/>") }
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/feed") }
        #expect(error?.kind == .protocolViolation)
        #expect(error?.message == "the server sent conflicting Content-Length values (\(named)): the body's length cannot be known", "\(String(describing: error))")
    }

    @Test func aContentLengthRepeatedWithTheSameValueIsAccepted() throws {
        let server = try RawTestServer { _ in
            Self.raw("HTTP/1.1 200 OK\nContent-Length: 6\nContent-Length: 6, 6\nConnection: close\n", body: "<rss/>")
        }
        #expect(try fetcher.fetch(server.baseURL + "/feed").response.body == Array("<rss/>".utf8))
    }

    /// libcurl says CURLE_UNSUPPORTED_PROTOCOL, which used to read "only http and https URLs are fetched".
    @Test func aReplyWithoutAStatusLineIsAProtocolFailureNotAnUnsupportedScheme() throws {
        let server = try RawTestServer { _ in Array(#"<rss version="2.0"><channel><title>0.9</title></channel></rss>"#.utf8) }
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/feed") }
        #expect(error?.kind == .protocolViolation)
        #expect(error?.message == "the server answered without an HTTP status line (an HTTP/0.9 reply, or not HTTP at all)", "\(String(describing: error))")
    }

    /// Debian's libcurl 7.88 stops at 300 KiB of headers in all with CURLE_RECV_ERROR, which
    /// used to read "Failure when receiving data".
    @Test func fiveThousandSetCookieHeadersAreReportedAsHeadersTooLarge() throws {
        let cookies = (0..<5000).map { "Set-Cookie: session_\($0)=\(String(repeating: "v", count: 48)); Path=/; HttpOnly\n" }.joined()
        let server = try RawTestServer { _ in Self.raw("HTTP/1.1 200 OK\n" + cookies + "Content-Length: 6\n", body: "<rss/>") }
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/feed") }
        #expect(error?.kind == .tooLarge)
        #expect(error?.message.hasPrefix("response headers too large (libcurl accepts at most 300 KiB of headers in all") == true, "\(String(describing: error))")
    }
}
