import FeedFetching
import TestSupport
import Testing

@Suite("Redirects: followed, reported, never looping")
struct RedirectTests {
    let fetcher = HTTPFetcher(configuration: localConfiguration())

    /// A server where `/rN` redirects with `statuses[N]` to `/r(N+1)`, and the end is a feed.
    private func chain(_ statuses: [Int]) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            guard request.path.hasPrefix("/r"), let step = Int(request.path.dropFirst(2)), step < statuses.count else {
                return .init(contentType: "application/rss+xml", body: "<rss/>")
            }
            return .init(status: statuses[step], headers: [("Location", "/r\(step + 1)")])
        }
    }

    @Test("permanent, temporary and mixed chains", arguments: [
        ([301], true), ([308], true), ([301, 308, 301], true), ([302], false), ([307], false), ([303], false),
        ([301, 302], false), ([307, 301], false),
    ])
    func chains(statuses: [Int], permanent: Bool) throws {
        let server = try chain(statuses)
        let response = try fetcher.fetch(server.baseURL + "/r0").response
        #expect(response.status == 200)
        #expect(response.finalURL == server.baseURL + "/r\(statuses.count)")
        #expect(response.redirects.map(\.status) == statuses)
        #expect(response.movedPermanently == permanent)
        #expect(response.body == Array("<rss/>".utf8))
    }

    @Test func noRedirectIsNotAMove() throws {
        let server = try chain([])
        #expect(try fetcher.fetch(server.baseURL + "/feed").response.movedPermanently == false)
    }

    @Test func aLoopIsAClearError() throws {
        let server = try TestHTTPServer { request in
            .init(status: 301, headers: [("Location", request.path == "/a" ? "/b" : "/a")])
        }
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/a") }
        #expect(error?.kind == .redirectLoop)
        #expect(error?.message == "redirect loop: \(server.baseURL)/b leads back to \(server.baseURL)/a")
    }

    @Test func tooManyRedirectsIsAnError() throws {
        let server = try chain(Array(repeating: 302, count: 9))
        let error = fetchError { _ = try fetcher.fetch(server.baseURL + "/r0") }
        #expect(error?.kind == .tooManyRedirects)
        #expect(server.requests.count == 6, "the initial request and five redirects, then stop")
    }

    @Test func aRedirectToANonHTTPSchemeIsRefused() throws {
        let server = try TestHTTPServer { _ in .init(status: 302, headers: [("Location", "file:///etc/passwd")]) }
        #expect(fetchError { _ = try fetcher.fetch(server.baseURL + "/") }?.kind == .unsupportedScheme)
    }
}

@Suite("No server-side request forgery")
struct AddressPolicyTests {
    @Test func privateAddressesAreRefusedByDefault() throws {
        let server = try TestHTTPServer { _ in .init(body: Array("<rss/>".utf8)) }
        let error = fetchError { _ = try HTTPFetcher().fetch(server.baseURL + "/") }
        #expect(error?.kind == .blockedAddress)
        #expect(error?.message.contains("--allow-private-networks") == true, "the refusal names the option that lifts it: \(String(describing: error))")
        #expect(server.requests.isEmpty, "nothing was sent")
    }

    @Test func aNameThatResolvesToLoopbackIsRefused() throws {
        let server = try TestHTTPServer { _ in .init(body: Array("<rss/>".utf8)) }
        let error = fetchError { _ = try HTTPFetcher().fetch("http://localhost:\(server.port)/") }
        #expect(error?.kind == .blockedAddress)
        #expect(server.requests.isEmpty)
    }

    @Test func aRedirectToAPrivateAddressIsRefusedOnTheAddressConnectedTo() throws {
        // The first hop (127.0.0.1) is explicitly allowed; the redirect target (127.0.0.2,
        // loopback, so even a failure of the check sends nothing off this machine) is not.
        let target = try TestHTTPServer { _ in .init(body: Array("<rss>secret</rss>".utf8)) }
        let server = try TestHTTPServer { _ in .init(status: 302, headers: [("Location", "http://127.0.0.2:\(target.port)/internal")]) }
        var configuration = FetchConfiguration()
        configuration.networkPolicy = NetworkPolicy(allowedAddresses: ["127.0.0.1"])
        let error = fetchError { _ = try HTTPFetcher(configuration: configuration).fetch(server.baseURL + "/") }
        #expect(error?.kind == .blockedAddress)
        #expect(error?.message.contains("127.0.0.2") == true)
        #expect(target.requests.isEmpty)
        #expect(server.requests.count == 1)
    }
}
