/// Why a fetch failed, as a stable kind (stored, counted, used for backoff) and one line a
/// person understands.
public struct FetchError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case invalidURL = "invalid-url"
        case unsupportedScheme = "unsupported-scheme"
        /// The address connected to is not allowed by the ``NetworkPolicy``.
        case blockedAddress = "blocked-address"
        case dns
        case connect
        case tls
        case timeout
        case tooManyRedirects = "too-many-redirects"
        case redirectLoop = "redirect-loop"
        case tooLarge = "too-large"
        /// Any other status that is not a feed: 4xx, 5xx (with `status`), 429/503 with `retryAfter`.
        case httpStatus = "http-status"
        case network
        /// A replay was asked for a request that was never recorded.
        case notRecorded = "not-recorded"
        /// A recording could not be written or read.
        case recording
        /// The run was told to stop (Ctrl-C, SIGTERM) while this transfer was in flight.
        case interrupted
    }

    public var kind: Kind
    public var url: String
    public var message: String
    /// The HTTP status when the server answered with one.
    public var status: Int?
    /// Seconds the server asked us to wait (`Retry-After` on 429 and 503), already capped.
    public var retryAfter: Int?
    /// libcurl's result code, when libcurl reported the failure.
    public var curlCode: Int?

    public init(
        kind: Kind, url: String, message: String, status: Int? = nil, retryAfter: Int? = nil, curlCode: Int? = nil
    ) {
        self.kind = kind
        self.url = url
        self.message = message
        self.status = status
        self.retryAfter = retryAfter
        self.curlCode = curlCode
    }

    public var description: String { "\(url): \(message)" }
}
