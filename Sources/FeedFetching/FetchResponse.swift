import FeedBasics

/// One hop of a redirect chain.
public struct Redirect: Sendable, Equatable, Codable {
    public var status: Int
    public var from: String
    public var to: String

    /// 301 and 308 say "use the new URL from now on"; 302, 303 and 307 do not.
    public var isPermanent: Bool { status == 301 || status == 308 }
}

/// What came back, whatever the outcome: the caller stores the validators, the final URL
/// and the caching hints, and reads the body.
public struct FetchResponse: Sendable, Equatable {
    public var requestedURL: String
    /// The URL the answer came from, after redirects: the base for relative links.
    public var finalURL: String
    public var status: Int
    public var redirects: [Redirect]
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    /// `Cache-Control` and `Expires`, for the scheduler.
    public var cacheControl: String?
    public var expires: String?
    /// The server's `Date`.
    public var date: String?
    /// The body (empty for 304): decoded, unless ``bodyCoding`` says otherwise.
    public var body: [UInt8]
    /// `identity` except for a body held compressed because a consumer was to read it (a fetch
    /// with a ``BodyConsumer``); read such a body through ``heldBody``.
    public var bodyCoding = ContentCoding.identity
    /// The size cap on the decoded body, for ``heldBody``.
    var decodedBodyLimit = Int.max
    /// The body went to a consumer while it arrived, so ``body`` is empty and nothing is held.
    var bodyStreamed = false
    /// SHA-256 (hex) of the body as received (compressed when it was held compressed); `nil`
    /// for 304. Compared with the next fetch's to skip an unchanged feed.
    public var bodyHash: String?
    /// Bytes received on the wire, headers and (compressed) bodies of every hop.
    public var bytesReceived: Int
    /// Seconds from the first request to the last byte.
    public var duration: Double

    public init(requestedURL: String, finalURL: String, status: Int) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.status = status
        self.redirects = []
        self.body = []
        self.bytesReceived = 0
        self.duration = 0
    }

    /// Every hop was a 301 or 308 (and there was at least one): the caller may move the
    /// feed's URL once it has seen this several runs in a row.
    public var movedPermanently: Bool {
        !redirects.isEmpty && redirects.allSatisfy(\.isPermanent)
    }

    /// Where the body came from, as a reader of it needs to know.
    public var source: BodySource {
        BodySource(url: finalURL, status: status, contentType: contentType, etag: etag, lastModified: lastModified)
    }

    /// The body, when it came back with the response rather than streaming into a consumer
    /// during the fetch (an empty one too: its reader must learn there was none), to be
    /// handed on with ``HeldBody/handOn(to:)``; `nil` when it streamed.
    public var heldBody: HeldBody? {
        bodyStreamed ? nil : HeldBody(source: source, bytes: body, coding: bodyCoding, decodedLimit: decodedBodyLimit)
    }

    /// The `charset` parameter of `Content-Type`, if any.
    public var charset: String? { Self.charset(ofContentType: contentType) }

    /// The `charset` parameter of a `Content-Type` value, if any.
    public static func charset(ofContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingASCII(" \t\"'") }
            if pair.count == 2, pair[0].lowercased() == "charset", !pair[1].isEmpty { return pair[1] }
        }
        return nil
    }
}

/// How a fetch ended when it did not fail. A 304 is an outcome, not an error.
public enum FetchOutcome: Sendable, Equatable {
    /// A new body to parse.
    case fetched(FetchResponse)
    /// `304 Not Modified`, or a `200` whose body hash equals the previous one (`status` tells which).
    case notModified(FetchResponse)
    /// `410 Gone`: the publisher says the feed will not come back.
    case gone(FetchResponse)

    public var response: FetchResponse {
        switch self {
        case .fetched(let response), .notModified(let response), .gone(let response): return response
        }
    }
}
