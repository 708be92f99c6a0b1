import FeedBasics

/// An entry's own anchors: the `id`s (and `name`s of `a`) its HTML defines, kept under a prefix
/// of the entry's own, and the links that point at them.
///
/// - The prefix is `fm-` and the first 8 hex digits of the SHA-256 of the entry's id
///   (`id="fn1"` becomes `id="fm-1a2b3c4d-fn1"`): stable from run to run, different for two
///   entries that a client shows on one page, so their footnotes cannot collide. Every kept
///   `id`/`name` carries it, which also keeps an entry from clobbering a name the client's
///   own page script uses (`<img name="getElementById">`).
/// - A same-entry link, `href="#fn1"` or the entry's permalink with `#fn1`, to an anchor the
///   entry defines becomes `href="#fm-1a2b3c4d-fn1"`: a fragment of the document the client
///   shows, which jumps inside it whatever base URL the client loaded the HTML with. It is the
///   one URL of the output that is not absolute, and it can name no scheme.
/// - One to an anchor the entry does not define (`#comments`, WordPress's `#more-42`) points
///   at that place of the entry's page: the permalink with the fragment; with no permalink,
///   `#fm-…-x` as well (it then goes nowhere, rather than to another page).
struct EntryAnchors: Sendable {
    /// `fm-1a2b3c4d-`.
    let prefix: String
    /// The permalink without its fragment, `nil` when the entry has none (or not a web one).
    let page: String?

    init(entryID: String, permalink: String?) {
        prefix = "fm-" + SHA256.hexDigest(entryID).prefix(8) + "-"
        if let permalink, URLResolver.isWebURL(permalink) {
            page = permalink.firstIndex(of: "#").map { String(permalink[..<$0]) } ?? permalink
        } else {
            page = nil
        }
    }

    /// The fragment a link points at when it points inside this entry: a bare `#x`, or the
    /// entry's page with `#x` (`resolved` is the link made absolute). `nil` for other links.
    func sameEntryFragment(raw: String, resolved: String?) -> Substring? {
        if raw.hasPrefix("#") { return unprefixed(raw.dropFirst()) }
        guard let page, let resolved, let hash = resolved.firstIndex(of: "#"), resolved[..<hash] == page else { return nil }
        return unprefixed(resolved[resolved.index(after: hash)...])
    }

    /// An anchor's name without this entry's prefix when it has it already (HTML this
    /// sanitiser wrote, read again), so that sanitising twice changes nothing.
    func unprefixed(_ name: Substring) -> Substring {
        name.hasPrefix(prefix) ? name.dropFirst(prefix.count) : name
    }

    /// The `href` of a same-entry link to `fragment`, once the entry's anchors are all known.
    func href(toFragment fragment: some StringProtocol, defined: Bool) -> String {
        if defined || page == nil { return "#" + prefix + fragment }
        return (page ?? "") + "#" + fragment
    }
}
