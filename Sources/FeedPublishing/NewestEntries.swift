/// The newest `limit` aggregate entries among any number added, holding at most about three
/// times `limit` of them at once.
///
/// Why: `atom.xml` and `index.html` take the newest 50 entries across every published feed, and
/// each feed gives up to 50. Kept all, that was every feed's newest entries with their summaries
/// alive together: about 24 KiB per feed, 2.4 GB at 100,000 feeds, the publisher's peak memory.
/// The order is total (an entry's id is unique within its feed), so which entries are kept and
/// their order are those of sorting everything and taking the first `limit`.
struct NewestEntries {
    let limit: Int
    private var held: [AggregateEntry] = []

    init(limit: Int) {
        self.limit = Swift.max(0, limit)
    }

    /// Newest first, then by feedid and id, so the order never depends on timing.
    static func precedes(_ a: AggregateEntry, _ b: AggregateEntry) -> Bool {
        (b.published, a.feedID, a.id) < (a.published, b.feedID, b.id)
    }

    mutating func add(_ entry: AggregateEntry) {
        held.append(entry)
        // Sorting 2×limit entries once per `limit` added: a constant cost per entry.
        if held.count > 2 * limit { keepFirst() }
    }

    /// The newest `limit` entries added, in order.
    var entries: [AggregateEntry] {
        var copy = self
        copy.keepFirst()
        return copy.held
    }

    private mutating func keepFirst() {
        held.sort(by: Self.precedes)
        held.removeSubrange(Swift.min(limit, held.count)...)
    }
}
