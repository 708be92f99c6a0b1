/// How the fetcher behaves: a value passed in, never a global.
public struct FetchConfiguration: Sendable, Equatable {
    /// Seconds to wait for a TCP/TLS connection.
    public var connectTimeout: Double
    /// Seconds a whole transfer may take, redirects included.
    public var totalTimeout: Double
    /// A transfer slower than this many bytes per second for ``lowSpeedTime`` seconds is cut off.
    public var lowSpeedLimit: Int
    public var lowSpeedTime: Int
    /// Largest body accepted, measured after decompression (so a gzip bomb stops here too).
    public var maxBodyBytes: Int
    public var maxRedirects: Int
    /// Identifies Feedmill to publishers, with a URL where they can reach its operator.
    public var userAgent: String
    /// Allow `file://` URLs (fixtures and local tests only).
    public var allowFileURLs: Bool

    public init(
        connectTimeout: Double = 10, totalTimeout: Double = 60, lowSpeedLimit: Int = 100, lowSpeedTime: Int = 20,
        maxBodyBytes: Int = 16 << 20, maxRedirects: Int = 5, userAgent: String = FetchConfiguration.defaultUserAgent(),
        allowFileURLs: Bool = false
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
        self.maxBodyBytes = maxBodyBytes
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent
        self.allowFileURLs = allowFileURLs
    }

    public static let `default` = FetchConfiguration()

    public static let version = "0.1.0"

    public static func defaultUserAgent(contact: String = "https://github.com/feedmill/feedmill") -> String {
        "Feedmill/\(version) (+\(contact))"
    }
}
