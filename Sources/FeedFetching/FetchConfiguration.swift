import FeedBasics
import Foundation

/// How the fetcher behaves: a value passed in, never a global. Every default is one a
/// polite, safe batch fetcher should have.
public struct FetchConfiguration: Sendable, Equatable {
    /// Seconds to wait for a TCP/TLS connection.
    public var connectTimeout: Double = 10
    /// Seconds a whole fetch may take, redirects included.
    public var totalTimeout: Double = 60
    /// A transfer slower than `lowSpeedLimit` bytes per second for `lowSpeedTime` seconds is cut off.
    public var lowSpeedLimit: Int = 100
    public var lowSpeedTime: Int = 20
    /// Largest body accepted, counted after decompression (so a gzip bomb stops here too).
    public var maxBodyBytes: Int = 16 << 20
    public var maxRedirects: Int = 5
    /// The longest `Retry-After` honoured, in seconds; longer requests are capped to this.
    public var maxRetryAfter: Int = 24 * 3600
    /// Which addresses may be connected to. Default: public addresses only.
    public var networkPolicy: NetworkPolicy = .publicOnly
    /// Forward proxies. Default: none; the commands read `http_proxy` and friends, or `--proxy`.
    public var proxies: ProxyRoute = .direct
    /// The certificate authorities TLS trusts. Default: libcurl's; the commands read
    /// `CURL_CA_BUNDLE`, `SSL_CERT_FILE` and `SSL_CERT_DIR`.
    public var certificateAuthorities: CertificateAuthorities = .system
    /// Allow `file://` URLs (fixtures and local tests only).
    public var allowFileURLs: Bool = false
    /// Where a publisher can reach whoever runs this Feedmill; part of the User-Agent.
    public var contactURL: String = FetchConfiguration.defaultContactURL
    /// Record every answer into a directory, or answer from one with no network.
    public var recording: RecordingMode?
    /// Seconds since the epoch to use instead of the system clock (`--now`,
    /// `SOURCE_DATE_EPOCH`), for reproducible runs.
    public var fixedNow: Int64?
    /// Raised to stop: no new transfer starts and those in flight are aborted (Ctrl-C, SIGTERM).
    public var stop: StopSignal?

    public init() {}

    /// The current time for this configuration.
    public func now() -> Int64 { fixedNow ?? Int64(Date().timeIntervalSince1970) }

    public static let `default` = FetchConfiguration()

    public static let version = FeedmillVersion.current
    public static let defaultContactURL = "https://github.com/feedmill/feedmill"

    /// `Feedmill/0.1.0 (+https://…)`: names the software, its version and a contact.
    public var userAgent: String { "Feedmill/\(Self.version) (+\(contactURL))" }
}
