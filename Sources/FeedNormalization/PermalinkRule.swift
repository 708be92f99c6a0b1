import FeedBasics
import FeedModel

/// The one rule for an entry's permalink: the first candidate, in this order, that resolves
/// to an absolute `http`/`https` URL.
///
/// - Atom: `link` elements with `rel="alternate"` (a missing `rel` means alternate) whose
///   `type` is HTML or absent, in document order; then `feedburner:origLink`; then, for an
///   entry with no link at all, its `id` when that is an http(s) URL.
/// - RSS: the item `link`, then `feedburner:origLink`, then an alternate `atom:link`
///   (same test as Atom), then the `guid` unless `isPermaLink="false"`.
/// - RDF: the item `link`, then an alternate `atom:link`, then `rdf:about`.
/// - JSON Feed: `url`, then `external_url`.
///
/// Relative values are resolved against the `xml:base` values in effect, then the document
/// base (the feed's final URL, or the channel link when the URL is unknown). A `guid` or
/// `rdf:about` counts only when it is already an absolute URL: it is an identifier first, and
/// a bare `12345` is not a path on the publisher's site.
public enum PermalinkRule {
    public static func permalink(for entry: ParsedEntry, format: FeedFormat, documentBase: String?) -> String? {
        for candidate in candidates(entry, format: format) {
            let bases = candidate.baseChain.isEmpty ? entry.baseChain : candidate.baseChain
            if let url = URLResolver.resolve(candidate.href, bases: bases, documentBase: documentBase),
                URLResolver.isWebURL(url)
            {
                return url
            }
        }
        if let identifier = identifierCandidate(entry, format: format), URLResolver.isWebURL(identifier) {
            return URLResolver.resolve(identifier, against: nil)
        }
        return nil
    }

    /// The guid (RSS, when a permalink) or `rdf:about` (RDF), tried last and never resolved.
    static func identifierCandidate(_ entry: ParsedEntry, format: FeedFormat) -> String? {
        guard let native = entry.nativeID?.trimmingASCIIWhitespace(), !native.isEmpty else { return nil }
        switch format {
        case .rss: return entry.guidIsPermaLink ? native : nil
        case .rdf: return native
        // An Atom id is an identifier, often unlike the entry's page (a tag: URI, a Planet's
        // feed-specific URL); it is used only when the entry has no link at all, as feedparser does.
        case .atom: return entry.links.isEmpty && entry.originalLink == nil ? native : nil
        case .json: return nil
        }
    }

    static func candidates(_ entry: ParsedEntry, format: FeedFormat) -> [FeedLink] {
        let alternates = entry.links.filter(isHTMLAlternate)
        switch format {
        case .atom:
            return alternates + [entry.originalLink].compactMap { $0 }
        case .rss:
            return [entry.itemLink, entry.originalLink].compactMap { $0 } + alternates
        case .rdf:
            return [entry.itemLink].compactMap { $0 } + alternates
        case .json:
            return [entry.itemLink, entry.originalLink].compactMap { $0 }
        }
    }

    /// `rel` absent or `alternate` (also its IANA URI form); `type` absent or an HTML type.
    static func isHTMLAlternate(_ link: FeedLink) -> Bool {
        let rel = link.rel?.trimmingASCIIWhitespace().lowercased() ?? "alternate"
        guard rel == "alternate" || rel == "http://www.iana.org/assignments/relation/alternate" else { return false }
        guard let type = link.type else { return true }
        let mediaType = type.split(separator: ";").first.map { String($0).trimmingASCIIWhitespace().lowercased() } ?? ""
        return mediaType.isEmpty || mediaType == "text/html" || mediaType == "application/xhtml+xml"
    }
}
