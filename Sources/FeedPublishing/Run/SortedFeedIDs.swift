/// Feed ids kept as an ascending array and looked up by binary search: the set of a
/// publication's own feeds and the catalog's listed ones. Why not a `Set`: hashing a million
/// ids into one took a tenth of a one-feed publication at 1,000,000 feeds (issue 51); the
/// catalog gives them ascending already.
struct SortedFeedIDs: Sendable {
    private let ids: [Int64]

    /// `ids` in any order; duplicates are harmless.
    init(_ ids: [Int64]) {
        self.ids = zip(ids, ids.dropFirst()).allSatisfy { $0 <= $1 } ? ids : ids.sorted()
    }

    func contains(_ id: Int64) -> Bool {
        var low = ids.startIndex
        var high = ids.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.endIndex && ids[low] == id
    }
}
