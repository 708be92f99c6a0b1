import FeedBasics
import FeedModel
import FeedStorage

/// One entry of the aggregated outputs, with the feed it came from.
struct AggregateEntry: Equatable {
    var feedID: Int64
    var feedTitle: String
    var feedURL: String
    var siteLink: String?
    var id: String
    var title: String
    var summary: String
    var permalink: String?
    var published: Int64
    var updated: Int64?
    var author: String?
    /// The feed gave no date: `published` is when Feedmill first saw the entry.
    var undated: Bool

    /// How far after a publication an entry's date may lie and still count among the newest
    /// (the one day normalisation allows a feed's clock to run ahead).
    static let futureAllowance: Int64 = 86_400
}
