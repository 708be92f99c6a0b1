import FeedFetching
import TestSupport
import Testing

@Suite("Forward proxies: a real proxy on 127.0.0.1")
struct ProxyTests {
    static let feed = #"<rss version="2.0"><channel><title>Via proxy</title></channel></rss>"#

    func configuration(_ proxies: ProxyRoute, policy: NetworkPolicy = .allowAll) -> FetchConfiguration {
        var configuration = FetchConfiguration()
        configuration.networkPolicy = policy
        configuration.proxies = proxies
        configuration.totalTimeout = 10
        return configuration
    }

    @Test func aFetchGoesThroughTheProxyTheEnvironmentNames() throws {
        let origin = try TestHTTPServer { _ in .init(contentType: "application/rss+xml", body: Self.feed) }
        let proxy = try TestForwardProxy()
        let route = try ProxyRoute.fromEnvironment(["http_proxy": proxy.url])
        let outcome = try HTTPFetcher(configuration: configuration(route)).fetch(origin.baseURL + "/f.xml")
        guard case .fetched(let response) = outcome else { Issue.record("expected a body"); return }
        #expect(response.body == Array(Self.feed.utf8))
        #expect(proxy.requestedURLs == [origin.baseURL + "/f.xml"])
        #expect(origin.requests.count == 1)
    }

    @Test func noProxyHostsAndNoneAreReachedDirectly() throws {
        let origin = try TestHTTPServer { _ in .init(contentType: "application/rss+xml", body: Self.feed) }
        let proxy = try TestForwardProxy()
        for route in [try ProxyRoute.fromEnvironment(["http_proxy": proxy.url, "no_proxy": "example.org, 127.0.0.1"]), .direct] {
            _ = try HTTPFetcher(configuration: configuration(route)).fetch(origin.baseURL + "/f.xml")
        }
        #expect(proxy.requestedURLs.isEmpty)
        #expect(origin.requests.count == 2)
    }

    /// The guard checks what Feedmill connects to: the proxy, on loopback here, is the
    /// operator's choice and allowed; a URL naming a private address is refused before the
    /// proxy is asked; a name is the proxy's to resolve.
    @Test func thePrivateNetworkGuardWithAProxy() throws {
        let proxy = try TestForwardProxy()
        let fetcher = HTTPFetcher(configuration: configuration(.explicit(proxy.url, environment: [:]), policy: .publicOnly))
        for url in ["http://127.0.0.1:9/f.xml", "http://[::1]/f.xml", "http://localhost:8080/f.xml", "http://10.0.0.7/f.xml"] {
            #expect(throws: FetchError.self) { try fetcher.fetch(url) }
            do {
                _ = try fetcher.fetch(url)
            } catch {
                #expect(error.kind == .blockedAddress, "\(url): \(error)")
                #expect(error.message.contains("--allow-private-networks"), "\(url): \(error)")
            }
        }
        #expect(proxy.requestedURLs.isEmpty)
        do {
            _ = try fetcher.fetch("http://feeds.invalid/f.xml")
            Issue.record("an unresolvable name cannot succeed")
        } catch {
            #expect(error.status == 502, "the proxy answered: \(error)")
        }
        #expect(proxy.requestedURLs == ["http://feeds.invalid/f.xml"])
    }

    @Test func theEnvironmentIsReadAsLibcurlReadsIt() throws {
        let route = try ProxyRoute.fromEnvironment([
            "HTTP_PROXY": "http://cgi-header.example:1", "HTTPS_PROXY": "http://secure.example:3128", "no_proxy": ".internal.example,Intranet",
        ])
        #expect(route.proxy(for: "http://news.example/feed") == nil, "upper-case HTTP_PROXY is ignored, as libcurl ignores it")
        #expect(route.proxy(for: "https://news.example/feed") == "http://secure.example:3128")
        #expect(route.proxy(for: "https://a.internal.example/feed") == nil)
        #expect(route.proxy(for: "https://internal.example/feed") == nil)
        #expect(route.proxy(for: "https://intranet:8443/feed") == nil)
        #expect(route.proxy(for: "https://notintranet/feed") == "http://secure.example:3128")
        let all = try ProxyRoute.fromEnvironment(["all_proxy": "socks5h://127.0.0.1:1080", "no_proxy": "*"])
        #expect(all.proxy(for: "http://news.example/") == nil)
        #expect(try ProxyRoute.fromEnvironment(["all_proxy": "socks5h://127.0.0.1:1080"]).proxy(for: "http://news.example/") == "socks5h://127.0.0.1:1080")
    }

    /// A proxy that is not listening used to read "connection refused or unreachable", as if
    /// the feed's server were down.
    @Test func aProxyThatCannotBeReachedIsNamedWithoutItsCredentials() throws {
        let closed = try TestHTTPServer { _ in .init() }
        let port = closed.port
        closed.stop()
        let proxy = "http://feedmill:s3cret@127.0.0.1:\(port)"
        let fetcher = HTTPFetcher(configuration: configuration(.explicit(proxy, environment: [:])))
        let error = fetchError { _ = try fetcher.fetch("http://feeds.example/f.xml") }
        #expect(error?.kind == .connect)
        let message = error?.message ?? ""
        #expect(message.hasPrefix("the proxy http://127.0.0.1:\(port) could not be reached"), "\(message)")
        #expect(!message.contains("s3cret") && !message.contains("feedmill:"), "\(message)")
    }

    /// The rule `--proxy` follows; a value without a scheme is an http:// proxy, as libcurl reads it.
    @Test func aMalformedProxyVariableIsRefusedNamingTheVariable() throws {
        for (variable, value, problem) in [
            ("http_proxy", "http://proxy example:3128", "contains a space"),
            ("https_proxy", "http://proxy.example:99999", "\"99999\" is not a port"),
            ("HTTPS_PROXY", "ftp://proxy.example", "\"ftp\" is not a proxy scheme"),
            ("all_proxy", "socks5h://:1080", "names no host"),
            ("ALL_PROXY", "http://user:pw@proxy.example:3128/path", "has no path"),
        ] {
            do {
                _ = try ProxyRoute.fromEnvironment([variable: value])
                Issue.record("\(variable)=\(value) was accepted")
            } catch {
                #expect(error.variable == variable)
                #expect(error.description.contains(problem), "\(error)")
                #expect(!error.description.contains("user:pw"), "credentials are not shown: \(error)")
            }
        }
        let bare = try ProxyRoute.fromEnvironment(["http_proxy": "127.0.0.1:3128", "https_proxy": "", "all_proxy": "socks5h://[::1]:1080/"])
        #expect(bare.httpProxy == "http://127.0.0.1:3128")
        #expect(bare.httpsProxy == "socks5h://[::1]:1080/", "an empty variable is unset")
        #expect(ProxyURL.problem("http://proxy.example:3128") == nil)
        #expect(ProxyURL.problem("proxy.example:3128") != nil, "--proxy needs a scheme")
    }
}
