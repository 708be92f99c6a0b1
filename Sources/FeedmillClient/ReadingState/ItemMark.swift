/// Whether the user read or starred one item, each with when it was set (unix seconds): what
/// ``ReadingState`` keeps and shares between the user's devices.
public struct ItemMark: Sendable, Equatable {
    public var feedID: Int64
    /// The item's `items.id`.
    public var id: String
    public var read: MarkedValue?
    public var starred: MarkedValue?

    public init(feedID: Int64, id: String, read: MarkedValue? = nil, starred: MarkedValue? = nil) {
        self.feedID = feedID
        self.id = id
        self.read = read
        self.starred = starred
    }
}

/// One field of a mark and when it was set.
public struct MarkedValue: Sendable, Equatable {
    public var value: Bool
    /// Unix seconds.
    public var at: Int64

    public init(_ value: Bool, at: Int64) {
        self.value = value
        self.at = at
    }

    /// The merge rule the server applies too (docs/client-contract.md, "Reading state"): the
    /// later setting wins; at the same second `true` wins, so a mark is kept rather than lost.
    /// Commutative and idempotent: two devices that edited offline end with the same marks
    /// whatever order they sync in.
    public static func merged(_ held: MarkedValue?, _ incoming: MarkedValue?) -> MarkedValue? {
        guard let held else { return incoming }
        guard let incoming else { return held }
        if incoming.at != held.at { return incoming.at > held.at ? incoming : held }
        return incoming.value ? incoming : held
    }
}

/// What one ``ReadingState/sync(server:token:transport:)`` did.
public struct StateSyncReport: Sendable, Equatable, Encodable {
    /// Marks set on this device and sent (the server took them).
    public var pushed = 0
    /// Marks received from the server (other devices', and this one's echoed).
    public var pulled = 0
    /// Local marks the received ones changed.
    public var changed = 0
    /// Marks dropped because retention removed their item (or their feed left).
    public var pruned = 0
    /// The local database could not be read and was made again (marks set here and not yet
    /// sent are lost; the server's come back with this sync).
    public var rebuilt = false

    enum CodingKeys: String, CodingKey { case pushed, pulled, changed, pruned, rebuilt }

    public var summary: String {
        "reading state: \(pushed) mark(s) sent, \(pulled) received (\(changed) changed here), \(pruned) dropped with their items"
            + (rebuilt ? "; the local state database was unreadable and was rebuilt" : "")
    }
}
