/// The last hop's answer before it is classified (fetched, not modified, gone, an HTTP error):
/// what a live fetch hands to the classifier, what a recording stores and what a replay gives
/// back, so both paths classify with the same code.
struct RawResponse: Codable, Sendable, Equatable {
    var finalURL: String
    var status: Int
    var redirects: [Redirect]
    /// Lowercased names; only ``recordedHeaders`` are kept.
    var headers: [String: String]

    /// Every header the classifier or the scheduler reads.
    static let recordedHeaders = ["content-type", "etag", "last-modified", "cache-control", "expires", "date", "retry-after"]

    func header(_ name: String) -> String? { headers[name] }
}

