/// Why a fetch failed, as a stable kind (stored, counted, used for backoff) and one line a
/// person understands.
public struct FetchError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        case invalidURL = "invalid-url"
        case unsupportedScheme = "unsupported-scheme"
        case dns
        case connect
        case tls
        case timeout
        case tooManyRedirects = "too-many-redirects"
        case tooLarge = "too-large"
        case httpStatus = "http-status"
        case network
    }

    public var kind: Kind
    public var url: String
    public var message: String
    /// The HTTP status when the server answered with one.
    public var status: Int?
    /// libcurl's result code, when libcurl reported the failure.
    public var curlCode: Int?

    public init(kind: Kind, url: String, message: String, status: Int? = nil, curlCode: Int? = nil) {
        self.kind = kind
        self.url = url
        self.message = message
        self.status = status
        self.curlCode = curlCode
    }

    public var description: String { "\(url): \(message)" }
}
