import FeedFetching
import Foundation
import TestSupport
import Testing

/// TLS against a real HTTPS server on 127.0.0.1 with a certificate made for the test.
@Suite("TLS: certificate messages and trusted authorities")
struct TLSTests {
    static let feed = #"<rss version="2.0"><channel><title>Over TLS</title></channel></rss>"#

    /// It used to read libcurl's generic "SSL peer certificate or SSH remote key was not OK".
    @Test func aSelfSignedCertificateIsNamedInTheMessage() throws {
        let server = try TestTLSServer(body: Self.feed)
        let error = fetchError { _ = try HTTPFetcher(configuration: localConfiguration()).fetch(server.baseURL + "/feed.xml") }
        #expect(error?.kind == .tls)
        #expect(error?.message.contains("certificate problem: self-signed certificate") == true, "\(String(describing: error))")
    }
}
