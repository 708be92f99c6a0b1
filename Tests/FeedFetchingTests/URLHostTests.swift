import FeedBasics
@testable import FeedFetching
import Testing

@Suite("The host of a URL")
struct URLHostTests {
    @Test func userInfoPortAndCaseDoNotMakeAnotherHost() {
        for url in ["http://Example.COM/feed", "https://user:pw@example.com:8443/a?b#c", "http://example.com", "http://example.com?x"] {
            #expect(URLHost.of(url) == "example.com", "\(url)")
        }
    }

    @Test func ipLiteralsLoseTheirBrackets() {
        #expect(URLHost.of("http://[2001:DB8::1]:8080/feed") == "2001:db8::1")
        #expect(URLHost.of("http://127.0.0.1:18480/feed") == "127.0.0.1")
    }

    @Test func aURLWithoutAnAuthorityIsItsOwnGroup() {
        #expect(URLHost.of("feed.xml") == nil)
        #expect(FetchScheduler.hostKey("feed.xml") == "feed.xml")
        #expect(FetchScheduler.hostKey("http://A.example/x") == FetchScheduler.hostKey("http://a.example:80/y"))
    }

    /// Non-ASCII hosts are compared as written: grouping does not need IDNA (libcurl converts
    /// when it connects), and doing it through Foundation loaded ICU.
    @Test func internationalNamesAreLowerCasedAsWritten() {
        #expect(URLHost.of("http://BÜCHER.example/feed") == "bücher.example")
    }
}
