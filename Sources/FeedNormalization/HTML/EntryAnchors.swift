import FeedBasics
import Glibc

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
    let entryID: String
    let permalink: String?

    /// Keeps the two strings only: the work is done for entries with anchors or links inside.
    init(entryID: String, permalink: String?) {
        self.entryID = entryID
        self.permalink = permalink
    }

    /// The permalink without its fragment, `nil` when the entry has none (or not a web one).
    var page: String? {
        guard let permalink, URLResolver.isWebURL(permalink) else { return nil }
        return permalink.utf8.firstIndex(of: UInt8(ascii: "#")).map { String(permalink[..<$0]) } ?? permalink
    }

    /// `fm-1a2b3c4d-`: made only for an entry that has anchors or links inside it (a hash per
    /// entry would cost every entry).
    func makePrefix() -> String {
        "fm-" + String(SHA256.hexDigest(entryID).prefix(8)) + "-"
    }

    /// The fragment a link points at when it points inside this entry: a bare `#x`, or the
    /// entry's page with `#x` (`resolved` is the link made absolute). `nil` for other links.
    func sameEntryFragment(raw: String, resolved: String?) -> Substring? {
        if raw.hasPrefix("#") { return raw.dropFirst() }
        guard let resolved, Self.hasFragment(resolved), let page, resolved.utf8.count > page.utf8.count,
            resolved.utf8.starts(with: page.utf8)
        else { return nil }
        let rest = resolved.utf8.dropFirst(page.utf8.count)
        guard rest.first == UInt8(ascii: "#") else { return nil }
        return Substring(rest.dropFirst())
    }

    /// Whether `url` has a `#`: asked of every link of every entry, so with `memchr` on the
    /// string's own bytes rather than through its UTF-8 view's iterator.
    static func hasFragment(_ url: String) -> Bool {
        let found = url.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, Int32(UInt8(ascii: "#")), bytes.count) != nil } ?? false
        }
        return found ?? url.utf8.contains(UInt8(ascii: "#"))
    }

    /// An anchor's name without this entry's prefix when it has it already (HTML this
    /// sanitiser wrote, read again), so that sanitising twice changes nothing.
    static func unprefixed(_ name: Substring, prefix: String) -> Substring {
        name.hasPrefix(prefix) ? name.dropFirst(prefix.count) : name
    }

    /// The `href` of a same-entry link to `fragment`, once the entry's anchors are all known.
    func href(toFragment fragment: Substring, defined: Bool, prefix: String) -> String {
        guard !defined, let page else { return "#" + prefix + fragment }
        return page + "#" + fragment
    }
}

/// What the writer learns of an entry's anchors as it goes.
struct AnchorsSeen {
    /// The anchors the entry defines, unprefixed.
    var names: Set<String> = []
    /// Made at the first anchor or link inside the entry.
    var prefix: String?

    mutating func prefix(for anchors: EntryAnchors) -> String {
        if let prefix { return prefix }
        let made = anchors.makePrefix()
        prefix = made
        return made
    }
}
