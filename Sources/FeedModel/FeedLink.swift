/// A URL-bearing value found in a feed, kept unresolved together with the `xml:base`
/// values that were in effect where it was found.
///
/// Resolution needs the feed's final URL, which only the caller knows, so it happens in
/// normalisation rather than while parsing.
public struct FeedLink: Sendable, Equatable {
    public var href: String
    /// The `rel` attribute as written (Atom, `atom:link`); `nil` when absent.
    public var rel: String?
    /// The `type` attribute as written; `nil` when absent.
    public var type: String?
    /// `xml:base` values in effect, outermost first.
    public var baseChain: [String]

    public init(href: String, rel: String? = nil, type: String? = nil, baseChain: [String] = []) {
        self.href = href
        self.rel = rel
        self.type = type
        self.baseChain = baseChain
    }
}

/// An enclosure as found: its unresolved link (with `type`) and the stated length in bytes.
public struct ParsedEnclosure: Sendable, Equatable {
    public var link: FeedLink
    public var length: Int64?
    /// Playing time in seconds, where the element states it (`media:content duration`, JSON Feed
    /// `duration_in_seconds`).
    public var duration: Int64?

    public init(link: FeedLink, length: Int64? = nil, duration: Int64? = nil) {
        self.link = link
        self.length = length
        self.duration = duration
    }
}
