import FeedmillClient
/// One item's marks for one user, as `/v1/state` carries them: whether it is read, whether
/// it is starred, and when the device set them. A mark may carry one field or both; a field
/// absent is left as it is.
struct ReadMark: Sendable, Equatable {
    var feedID: Int64
    var itemID: String
    var read: Bool?
    var starred: Bool?
    /// Unix seconds, the device's clock.
    var at: Int64

    /// The longest item id taken: longer than any id the publisher writes (a guid or a URL).
    static let itemIDLimit = 2_048
}

/// A field's value and when it was set: what the merge compares.
struct MarkedField: Sendable, Equatable {
    var value: Bool
    var at: Int64

    /// The merge rule, per item and per field: the client's (``MarkedValue/merged(_:_:)``), so
    /// server and devices cannot drift apart. The later setting wins; at the same second, `true`
    /// wins (a mark set on one device in the second another cleared it is kept rather than
    /// lost). So two devices that edited offline, in any order of arrival, end with the same
    /// value, and one setting never undoes a later one. Nil when `incoming` changes nothing.
    static func merged(stored: MarkedField?, incoming: MarkedField) -> MarkedField? {
        let held = stored.map { MarkedValue($0.value, at: $0.at) }
        guard let result = MarkedValue.merged(held, MarkedValue(incoming.value, at: incoming.at)), result != held else { return nil }
        return MarkedField(value: result.value, at: result.at)
    }
}
