@testable import FeedFetching
import Foundation
import TestSupport
import Testing

/// A fetcher replaces its libcurl handle once it has opened ``HTTPFetcher/connectionsPerHandle``
/// connections, so what libcurl 7.88 leaves behind per host in a handle's pool goes with it,
/// and keeps the handle, and its open connection, while it reuses one.
@Suite("A fetcher's handle is renewed after many connections")
struct HandleRenewalTests {
    @Test func aHandleThatOpenedManyConnectionsIsReplacedAndTheFetchesCarryOn() throws {
        let server = try TestHTTPServer { request in .init(body: Array("<rss>\(request.path)</rss>".utf8)) }
        let fetcher = HTTPFetcher(configuration: localConfiguration())
        let hosts = 2 * HTTPFetcher.connectionsPerHandle + 1
        for index in 0..<hosts {
            let outcome = try fetcher.fetch("http://h\(index).localhost:\(server.port)/feed\(index)")
            #expect(outcome.response.body == Array("<rss>/feed\(index)</rss>".utf8))
        }
        #expect(fetcher.handlesReplaced == 2, "one new handle after each \(HTTPFetcher.connectionsPerHandle) connections")
        #expect(server.connectionsByHost.count == hosts)
    }

    @Test func aHandleThatReusesItsConnectionIsKept() throws {
        let server = try TestHTTPServer { _ in .init(body: Array("<rss/>".utf8)) }
        let fetcher = HTTPFetcher(configuration: localConfiguration())
        for index in 0..<(2 * HTTPFetcher.connectionsPerHandle) {
            _ = try fetcher.fetch("http://one.localhost:\(server.port)/feed\(index)")
        }
        #expect(fetcher.handlesReplaced == 0)
        #expect(server.connectionsByHost == ["one.localhost": 1], "every request on the one kept-alive connection")
    }
}
