import FeedFetching
import Testing

@Suite("Which addresses the fetcher may reach")
struct NetworkPolicyTests {
    @Test("non-public addresses", arguments: [
        "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.2.10", "198.18.0.1", "::1", "::",
        "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "2001:db8::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
        "64:ff9b::a9fe:a9fe",
    ])
    func nonPublic(address: String) throws {
        let ip = try #require(IPAddress(address))
        #expect(!ip.isPublic)
        #expect(!NetworkPolicy.publicOnly.permits(ip))
        #expect(NetworkPolicy.allowAll.permits(ip))
    }

    @Test("public addresses", arguments: [
        "93.184.216.34", "8.8.8.8", "172.32.0.1", "172.15.255.255", "100.128.0.1", "1.1.1.1", "2606:4700::1111",
        "::ffff:8.8.8.8", "2a00:1450:4001::200e",
    ])
    func publicAddresses(address: String) throws {
        let ip = try #require(IPAddress(address))
        #expect(ip.isPublic)
        #expect(NetworkPolicy.publicOnly.permits(ip))
    }

    @Test func anExplicitAddressIsAllowedAlone() throws {
        let policy = NetworkPolicy(allowedAddresses: ["127.0.0.1"])
        #expect(policy.permits(try #require(IPAddress("127.0.0.1"))))
        #expect(!policy.permits(try #require(IPAddress("127.0.0.2"))))
    }

    @Test func namesAreNotAddresses() {
        #expect(IPAddress("localhost") == nil)
        #expect(IPAddress("example.com") == nil)
        #expect(IPAddress("1.2.3") == nil)
    }

    /// What an error message about a blocked address shows: the address in its usual text.
    @Test func addressesPrintInTheirUsualText() throws {
        for (written, printed) in [("10.0.0.1", "10.0.0.1"), ("::1", "::1"), ("FE80:0:0::1", "fe80::1"), ("2001:db8::ff00:42:8329", "2001:db8::ff00:42:8329")] {
            #expect(try #require(IPAddress(written)).description == printed)
        }
    }
}
