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
    /// `identity` except for a body held compressed for a consumer that takes small bodies
    /// after the fetch (the update run); read such a body with ``withDecodedBody(_:)``.
    public var bodyCoding = ContentCoding.identity
    /// The size cap on the decoded body, for ``withDecodedBody(_:)``.
    var decodedBodyLimit = Int.max
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

    /// Hands the decoded body to `receive` in pieces, inflating a body held compressed; the
    /// size cap counts decoded bytes. Stops early when `receive` returns `false`.
    /// - Throws: `tooLarge` past the cap; `network` for damaged compressed data or a stream cut short.
    public func withDecodedBody(_ receive: (UnsafeRawBufferPointer) -> Bool) throws(FetchError) {
        guard !body.isEmpty else { return }
        guard bodyCoding != .identity else {
            _ = body.withUnsafeBytes(receive)
            return
        }
        let inflater = BodyInflater(coding: bodyCoding)
        var outcome: Result<Bool, BodyInflater.Failure> = .success(true)
        body.withUnsafeBytes { bytes in
            do throws(BodyInflater.Failure) {
                outcome = .success(try inflater.inflate(bytes, limit: decodedBodyLimit, into: receive))
            } catch {
                outcome = .failure(error)
            }
        }
        switch outcome {
        case .success(let wanted):
            guard wanted, !inflater.ended else { return }
            throw FetchError(kind: .network, url: finalURL, message: inflater.endedEarly, status: status)
        case .failure(.tooLarge):
            throw FetchError(kind: .tooLarge, url: finalURL, message: "body larger than \(decodedBodyLimit) bytes once decompressed", status: status)
        case .failure(.damaged(let reason)):
            throw FetchError(kind: .network, url: finalURL, message: reason, status: status)
        }
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
