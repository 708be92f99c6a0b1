import FeedBasics
import FeedModel

/// The one way a URL found in a feed becomes one a client may follow.
enum WebLink {
    /// `link` without forbidden characters and surrounding white space, resolved against its own
    /// `xml:base` chain (else `fallbackBases`, the entry's or the feed's), then the document
    /// base; `nil` unless the result passes ``URLResolver/isWebURL(_:)``.
    static func resolve(_ link: FeedLink, fallbackBases: [String], documentBase: String?) -> String? {
        let href = PlainText.collapseWhitespace(XMLCharacters.filtered(link.href))
        guard !href.isEmpty else { return nil }
        let bases = link.baseChain.isEmpty ? fallbackBases : link.baseChain
        guard let url = URLResolver.resolve(href, bases: bases, documentBase: documentBase), URLResolver.isWebURL(url) else {
            return nil
        }
        return url
    }

    /// Plain text for a short field (a name, a term, a type): forbidden characters removed,
    /// white space collapsed; `nil` when nothing is left.
    static func shortText(_ text: String?) -> String? {
        guard let text else { return nil }
        let cleaned = PlainText.collapseWhitespace(XMLCharacters.filtered(text))
        return cleaned.isEmpty ? nil : cleaned
    }
}
