import FeedNormalization

/// The last check before a URL becomes a link in `atom.xml` or `index.html`: whatever it came
/// from (an OPML `htmlUrl`, a feed, a redirect, a catalog edited by hand), only an absolute
/// http(s) URL with a host is written as a link, by the one rule that also guards permalinks
/// (``URLResolver/isWebURL(_:)``).
enum WebLink {
    static func checked(_ url: String) -> String? {
        URLResolver.isWebURL(url) ? url : nil
    }
}
