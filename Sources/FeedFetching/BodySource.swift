/// What a reader of a feed's body needs to know of where the body came from, whoever brought
/// it: a fetch, a file, a body pushed to Feedmill. Readers (``BodyConsumer``) take this rather
/// than a ``FetchResponse``, so that a body that was never fetched is read the same way.
public struct BodySource: Sendable, Equatable {
    /// Where the body was finally fetched from, after redirects: what its relative links
    /// resolve against. `nil` for a file, whose links resolve against the feed's own link.
    public var url: String?
    /// The (2xx) HTTP status it came with; `nil` for a body that was not fetched.
    public var status: Int?
    /// `Content-Type`: its `charset` decodes the bytes when the document itself does not say.
    public var contentType: String?
    /// The validators it came with (`ETag`, `Last-Modified`), for a reader that keeps them.
    public var etag: String?
    public var lastModified: String?

    public init(url: String?, status: Int? = nil, contentType: String? = nil, etag: String? = nil, lastModified: String? = nil) {
        self.url = url
        self.status = status
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The `charset` parameter of ``contentType``, if any.
    public var charset: String? { FetchResponse.charset(ofContentType: contentType) }
}

/// Reads a feed's body as it arrives, so that it is never held whole: the update step parses,
/// normalises and stores each entry as soon as its bytes are in, and `rss-inspect` reads a
/// file or a fetched body through the same reader.
///
/// A fetch starts it only for the final, successful (2xx) response, and only once the body
/// has outgrown ``BodyStream/holdLimit``: a smaller body comes back whole with its response
/// (``FetchResponse/heldBody``), so that the transfer slot is free before it is read, and is
/// handed on from there by ``HeldBody/handOn(to:)``, through the same two calls. A body that
/// hashes the same as last time is reported not modified without ever reaching the consumer.
/// After a failed or not-modified fetch, what was consumed must be thrown away by the caller.
public protocol BodyConsumer: AnyObject {
    /// The body begins.
    func start(_ source: BodySource)
    /// The next bytes, decoded. Returning `false` stops the delivery (the consumer has seen
    /// enough to know the rest would change nothing).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
}
