import FeedBasics

/// How a body held by the fetcher is encoded: as the server sent it, when Feedmill holds it
/// compressed (``BodyStream``), or already decoded.
public enum ContentCoding: String, Sendable, Equatable {
    case identity
    case gzip
    case deflate

    /// What a fetch that holds bodies compressed asks for: the codings ``BodyInflater`` decodes.
    static let accepted = "gzip, deflate"

    /// The coding a `Content-Encoding` value names, `nil` for one Feedmill cannot decode (or
    /// more than one coding stacked). `identity` entries and an absent header mean none.
    static func of(contentEncoding value: String?) -> ContentCoding? {
        guard let value else { return .identity }
        let codings = value.split(separator: ",").map { $0.trimmingASCII(" \t").lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        switch codings {
        case []: return .identity
        case ["gzip"], ["x-gzip"]: return .gzip
        case ["deflate"]: return .deflate
        default: return nil
        }
    }
}
