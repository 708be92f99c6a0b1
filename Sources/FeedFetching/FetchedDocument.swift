/// A response body and what the caller needs to read and revalidate it.
public struct FetchedDocument: Sendable, Equatable {
    public var status: Int
    /// The URL the body came from, after redirects: the base for relative links.
    public var finalURL: String
    public var contentType: String?
    public var etag: String?
    public var lastModified: String?
    public var body: [UInt8]

    public init(
        status: Int, finalURL: String, contentType: String? = nil, etag: String? = nil, lastModified: String? = nil,
        body: [UInt8]
    ) {
        self.status = status
        self.finalURL = finalURL
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.body = body
    }

    /// The `charset` parameter of `Content-Type`, if any.
    public var charset: String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t\"'") }
            if pair.count == 2, pair[0].lowercased() == "charset", !pair[1].isEmpty { return pair[1] }
        }
        return nil
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        let unwanted = Set(set)
        return String(drop { unwanted.contains($0) }.reversed().drop { unwanted.contains($0) }.reversed())
    }
}
