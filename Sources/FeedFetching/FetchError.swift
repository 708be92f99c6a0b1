import FeedModel

/// Why a fetch failed, as a stable kind (stored, counted, used for backoff) and one line a
/// person understands.
public struct FetchError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The fetcher uses the fetch kinds of the kind every failure shares.
    public typealias Kind = FailureKind

    public var kind: Kind
    public var url: String
    public var message: String
    /// The HTTP status when the server answered with one.
    public var status: Int?
    /// Seconds the server asked us to wait (`Retry-After` on 429 and 503), already capped.
    public var retryAfter: Int?
    /// libcurl's result code, when libcurl reported the failure.
    public var curlCode: Int?
    /// Seconds from the request to the failure (0 when replayed).
    public var duration: Double = 0

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

    /// The same failure, however long it took: `duration` is a measurement, not part of what failed.
    public static func == (lhs: FetchError, rhs: FetchError) -> Bool {
        (lhs.kind, lhs.url, lhs.message, lhs.status, lhs.retryAfter, lhs.curlCode)
            == (rhs.kind, rhs.url, rhs.message, rhs.status, rhs.retryAfter, rhs.curlCode)
    }
}
