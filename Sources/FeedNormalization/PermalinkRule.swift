import FeedModel

/// The one rule for an entry's permalink: the first candidate, in this order, that resolves
/// to an absolute `http`/`https` URL.
///
/// - Atom: `link` elements with `rel="alternate"` (a missing `rel` means alternate) whose
///   `type` is HTML or absent, in document order; then `feedburner:origLink`.
/// - RSS: the item `link`, then `feedburner:origLink`, then an alternate `atom:link`
///   (same test as Atom), then the `guid` unless `isPermaLink="false"`.
/// - RDF: the item `link`, then an alternate `atom:link`, then `rdf:about`.
/// - JSON Feed: `url`, then `external_url`.
///
/// Relative values are resolved against the `xml:base` values in effect, then the document
/// base (the feed's final URL, or the channel link when the URL is unknown).
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
        return nil
    }

    static func candidates(_ entry: ParsedEntry, format: FeedFormat) -> [FeedLink] {
        let alternates = entry.links.filter(isHTMLAlternate)
        let guid = entry.nativeID.map { FeedLink(href: $0, baseChain: entry.baseChain) }
        switch format {
        case .atom:
            return alternates + [entry.originalLink].compactMap { $0 }
        case .rss:
            let guidCandidate = entry.guidIsPermaLink ? guid : nil
            return [entry.itemLink, entry.originalLink].compactMap { $0 } + alternates + [guidCandidate].compactMap { $0 }
        case .rdf:
            return [entry.itemLink].compactMap { $0 } + alternates + [guid].compactMap { $0 }
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
