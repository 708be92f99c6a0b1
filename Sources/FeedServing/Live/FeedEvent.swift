import Foundation

/// One event of `GET /events` (client contract, "Live updates"): its type, its `id:` (the
/// generation of the root it belongs to, which orders events and is what `Last-Event-ID`
/// resumes from), the feed it is about, and its JSON `data:`.
struct FeedEvent: Sendable {
    enum Kind: String, Sendable {
        /// A followed feed's current entry, sent on connect.
        case entry
        /// A feed changed in a publication, with the JSON Patch from the version before.
        case patch
        /// A feed changed but no patch can be given (no delta from the version before, the
        /// client too far behind or too slow): fetch the file the entry names.
        case resync
    }

    let kind: Kind
    let generation: Int
    let feedID: Int64
    /// The JSON object of `data:`, serialised once for every connection.
    let data: String

    /// `event:`, `id:` and `data:` lines and the blank line that ends an event: made once,
    /// however many connections it goes to.
    let wire: String

    init(kind: Kind, generation: Int, feedID: Int64, data: String) {
        (self.kind, self.generation, self.feedID, self.data) = (kind, generation, feedID, data)
        wire = "event: \(kind.rawValue)\nid: \(generation)\ndata: \(data)\n\n"
    }

    /// `fields` as one line of JSON, keys sorted (the same bytes from every instance).
    static func json(_ fields: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
