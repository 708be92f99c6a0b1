/// One feed to fetch, with what the caller remembers from the last fetch so that an
/// unchanged feed costs the publisher a `304` and Feedmill no parse.
public struct FetchRequest: Sendable, Equatable {
    public var url: String
    /// Sent as `If-None-Match`.
    public var etag: String?
    /// Sent as `If-Modified-Since`.
    public var lastModified: String?
    /// SHA-256 (hex) of the last body: a `200` with the same body is reported as not modified.
    public var previousBodyHash: String?
    /// An `application/x-www-form-urlencoded` body: the request is a POST (a WebSub
    /// subscription to a hub), under the same address, proxy, timeout and size rules as a fetch.
    public var form: String?

    public init(url: String, etag: String? = nil, lastModified: String? = nil, previousBodyHash: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.previousBodyHash = previousBodyHash
    }
}
