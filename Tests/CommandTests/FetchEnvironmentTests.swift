import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// What the fetcher reads from the environment (proxies, certificate authorities), through the
/// built binaries: a value it cannot use stops the command as a bad option does (exit 64),
/// naming the variable, instead of failing every feed with a message about something else.
@Suite("The fetch environment: proxies and certificate authorities", .serialized)
struct FetchEnvironmentTests {
    @Test func aMalformedProxyVariableStopsTheCommandWithStatus64LikeABadProxyOption() throws {
        let run = try BinaryRun(feeds: 1)
        let create = ["--opml", run.server.baseURL + "/list.opml"] + run.options
        for (variable, value) in [
            ("http_proxy", "http://proxy example:3128"), ("https_proxy", "http://proxy.example:port"), ("all_proxy", "ftp://proxy.example"),
        ] {
            let refused = try run.create.runCapturing(create, environment: [variable: value])
            #expect(refused.status == 64, "\(variable)=\(value): \(refused.stderr)")
            #expect(refused.stderr.contains("\(variable)='\(value)' (from the environment): expected a proxy URL"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: run.data + "/all_feeds.sqlite"), "nothing was done")
        }
        // A proxy written without a scheme is an http:// proxy, as libcurl reads it.
        let proxy = try TestForwardProxy()
        let bare = String(proxy.url.dropFirst("http://".count))
        let created = try run.create.runCapturing(create, environment: ["http_proxy": bare])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(proxy.requestedURLs.count == 2, "the list and the feed went through \(bare)")
        // --proxy replaces the environment's proxies, so theirs do not matter then.
        let direct = try run.update.runCapturing(["--all", "--proxy", "none"] + run.options, environment: ["http_proxy": "http://bad proxy"])
        #expect(direct.status == 0, "\(direct.stderr)")
    }

    @Test func aCertificateVariableThatNamesNothingStopsTheCommandWithStatus64() throws {
        let run = try BinaryRun(feeds: 1)
        for (variable, value) in [("SSL_CERT_FILE", "/nonexistent/ca.pem"), ("CURL_CA_BUNDLE", run.root.url.path), ("SSL_CERT_DIR", "/nonexistent/certs")] {
            let refused = try run.create.runCapturing(["--opml", run.server.baseURL + "/list.opml"] + run.options, environment: [variable: value])
            #expect(refused.status == 64, "\(variable)=\(value): \(refused.stderr)")
            #expect(refused.stderr.contains("\(variable)='\(value)' (from the environment): "), "\(refused.stderr)")
        }
    }

    /// libcurl's built-in bundle used to win over them, so a private authority could not be trusted.
    @Test(.enabled(if: TestTLSServer.canRun, "the TLS test server needs openssl and python3 (Debian packages openssl, python3)"))
    func theCertificateVariablesMakeAServerWithAPrivateAuthorityTrusted() throws {
        let server = try TestTLSServer(body: #"<rss version="2.0"><channel><title>Private CA</title></channel></rss>"#)
        let inspect = Executable(name: "rss-inspect")
        let arguments = [server.baseURL + "/feed.xml", "--allow-private-networks", "--summary"]
        let untrusted = try inspect.runCapturing(arguments)
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("certificate problem: self-signed certificate"), "\(untrusted.stderr)")
        for environment in [
            ["SSL_CERT_FILE": server.certificateFile], ["CURL_CA_BUNDLE": server.certificateFile], ["SSL_CERT_DIR": try server.hashedDirectory()],
        ] {
            let trusted = try inspect.runCapturing(arguments, environment: environment)
            #expect(trusted.status == 0, "\(environment): \(trusted.stderr)")
            #expect(trusted.stdout.contains("Private CA"), "\(trusted.stdout)")
        }
    }
}
