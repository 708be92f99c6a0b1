/// `--mark FEEDID:read|unread|star|unstar:ITEM-ID`: the id is everything after the second
/// colon (an item id is often a URL, colons and all).
struct MarkArgument: Equatable {
    var feedID: Int64
    var id: String
    var read: Bool?
    var starred: Bool?

    init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let feedID = Int64(parts[0]), feedID > 0, !parts[2].isEmpty else { return nil }
        self.feedID = feedID
        id = String(parts[2])
        switch parts[1] {
        case "read": read = true
        case "unread": read = false
        case "star": starred = true
        case "unstar": starred = false
        default: return nil
        }
    }
}
