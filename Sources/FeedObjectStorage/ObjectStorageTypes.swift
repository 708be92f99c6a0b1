/// What a conditional write requires of the object already at its key: how two publishers
/// race for the root and exactly one wins.
public enum WriteCondition: Sendable, Equatable {
    /// Write whatever is there.
    case none
    /// Only if nothing is there yet (`If-None-Match: *`): the first root.
    case absent
    /// Only if what is there is still this version (`If-Match: ETag`): the root read at the
    /// start of a publication.
    case matches(etag: String)
}

/// An object's identity as a listing or a HEAD tells it.
public struct StoredObjectInfo: Sendable, Equatable {
    public var key: String
    /// As the server sends it, quotes included: what `WriteCondition.matches` takes back.
    public var etag: String
    public var size: Int
}

/// An object read whole.
public struct StoredObject: Sendable, Equatable {
    public var etag: String
    public var contentType: String?
    public var cacheControl: String? = nil
    public var body: [UInt8]
}

/// A conditional read's answer (``S3Client/get(_:unlessETag:)``).
public enum ConditionalRead: Sendable, Equatable {
    /// Still the version asked about; nothing was sent.
    case unchanged
    /// No object at the key.
    case absent
    /// Another version, read whole.
    case changed(StoredObject)
}

/// What an upload sends beside the bytes.
public struct PutOptions: Sendable, Equatable {
    public var contentType: String
    /// `Cache-Control` as clients and a CDN will see it: immutable for versioned names, short
    /// for the root.
    public var cacheControl: String?
    public var condition: WriteCondition

    public init(contentType: String = "application/octet-stream", cacheControl: String? = nil, condition: WriteCondition = .none) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.condition = condition
    }
}
