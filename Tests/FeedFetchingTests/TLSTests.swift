import FeedFetching
import Foundation
import TestSupport
import Testing

/// TLS against a real HTTPS server on 127.0.0.1 with a certificate made for the test.
@Suite("TLS: certificate messages and trusted authorities")
struct TLSTests {
    static let feed = #"<rss version="2.0"><channel><title>Over TLS</title></channel></rss>"#

    /// It used to read libcurl's generic "SSL peer certificate or SSH remote key was not OK".
    @Test(.enabled(if: TestTLSServer.canRun, "the TLS test server needs openssl and python3 (Debian packages openssl, python3)"))
    func aSelfSignedCertificateIsNamedInTheMessage() throws {
        let server = try TestTLSServer(body: Self.feed)
        let error = fetchError { _ = try HTTPFetcher(configuration: localConfiguration()).fetch(server.baseURL + "/feed.xml") }
        #expect(error?.kind == .tls)
        #expect(error?.message.contains("certificate problem: self-signed certificate") == true, "\(String(describing: error))")
    }

    @Test(.enabled(if: TestTLSServer.canRun, "the TLS test server needs openssl and python3 (Debian packages openssl, python3)"))
    func aBundleOrADirectoryThatTrustsTheCertificateMakesTheFetchSucceed() throws {
        let server = try TestTLSServer(body: Self.feed)
        for authorities in [
            CertificateAuthorities(bundleFile: server.certificateFile),
            CertificateAuthorities(directory: try server.hashedDirectory()),
        ] {
            let fetcher = HTTPFetcher(configuration: localConfiguration { $0.certificateAuthorities = authorities })
            #expect(try fetcher.fetch(server.baseURL + "/feed.xml").response.body == Array(Self.feed.utf8), "\(authorities)")
        }
    }

    /// As the curl tool reads them: CURL_CA_BUNDLE before SSL_CERT_FILE; SSL_CERT_DIR beside either.
    @Test func theCertificateVariablesAreReadAsTheCurlToolReadsThem() throws {
        let directory = try TemporaryDirectory()
        let first = try directory.write("first.pem", ""), second = try directory.write("second.pem", "")
        let root = directory.url.path
        #expect(try CertificateAuthorities.fromEnvironment([:]) == .system)
        #expect(try CertificateAuthorities.fromEnvironment(["CURL_CA_BUNDLE": first, "SSL_CERT_FILE": second, "SSL_CERT_DIR": root])
            == CertificateAuthorities(bundleFile: first, directory: root))
        #expect(try CertificateAuthorities.fromEnvironment(["CURL_CA_BUNDLE": "", "SSL_CERT_FILE": second])
            == CertificateAuthorities(bundleFile: second), "an empty variable is unset")
        for (environment, variable, problem) in [
            (["SSL_CERT_FILE": root + "/missing.pem"], "SSL_CERT_FILE", "no such file"),
            (["CURL_CA_BUNDLE": root], "CURL_CA_BUNDLE", "a directory, not a file"),
            (["SSL_CERT_DIR": root + "/missing"], "SSL_CERT_DIR", "no such directory"),
            (["SSL_CERT_DIR": first], "SSL_CERT_DIR", "a file, not a directory"),
        ] {
            do {
                _ = try CertificateAuthorities.fromEnvironment(environment)
                Issue.record("\(environment) was accepted")
            } catch {
                #expect(error.variable == variable)
                #expect(error.description.hasPrefix("\(variable)='\(environment[variable] ?? "")' (from the environment): \(problem)"), "\(error)")
            }
        }
    }
}
