import FeedBasics
import FeedModel

/// Turns a ``ParsedFeed`` into the entries Feedmill stores, applying each documented rule once.
///
/// - id: ``EntryIDRule``; duplicates within a document: ``DuplicateIDResolver``.
/// - permalink: ``PermalinkRule``.
/// - every text: without the characters XML 1.0 forbids (``XMLCharacters``), first, so that
///   a NUL cannot cut a title short in libxml2 and nothing stored can break an XML output.
/// - title: ``PlainText`` of the title, else of `media:title` (empty when the entry has none).
/// - summary: the richest HTML the entry has (content over summary/description), made safe
///   by ``HTMLSanitizer`` with relative URLs resolved.
/// - dates: published and updated each kept only when plausible (``DateRule``: after the
///   epoch, at most a day after the feed was read), else missing as if unreadable; pubdate is
///   published, else updated; `nil` when neither is kept.
/// - authors and the byline: ``PersonRule``; enclosures: ``EnclosureRule``; categories:
///   ``CategoryRule``; the entry's image and the feed's picture: ``PictureRule``; the feed's
///   description and language: ``FeedAboutRule``. Every URL among them resolves against the
///   entry's own base and passes ``URLResolver/isWebURL(_:)``, or is left out.
public enum FeedNormalizer {
    /// - Parameters:
    ///   - feedURL: the URL the feed was finally fetched from (after redirects), the base for
    ///     relative links; `nil` for a local file, where the channel link serves instead.
    ///   - now: when the feed was read (seconds since 1970), which bounds its dates (``DateRule``).
    ///
    /// Takes the parsed feed by value and releases each parsed entry once normalised, so a
    /// large feed is not held twice (raw and sanitised) at once.
    public static func normalize(_ parsed: consuming ParsedFeed, feedURL: String?, now: Int64) -> NormalizedFeed {
        var stream = EntryNormalizer(feedURL: feedURL, now: now)
        var pending = parsed.entries
        parsed.entries = []
        pending.reverse()
        var entries: [Entry] = []
        entries.reserveCapacity(pending.count)
        while let parsedEntry = pending.popLast() {
            if let entry = stream.normalize(parsedEntry, in: parsed) { entries.append(entry) }
        }
        var feed = header(parsed, feedURL: feedURL)
        feed.entries = entries
        return feed
    }

    /// What the feed says of itself, without entries: for a feed whose entries were streamed
    /// through an ``EntryNormalizer``.
    public static func header(_ parsed: ParsedFeed, feedURL: String?) -> NormalizedFeed {
        NormalizedFeed(
            format: parsed.format,
            title: parsed.title.map { PlainText.title($0.withoutForbiddenCharacters(), format: parsed.format) } ?? "",
            link: siteLink(parsed, feedURL: feedURL),
            about: FeedAboutRule.about(parsed, documentBase: feedURL ?? siteLink(parsed, feedURL: nil)),
            hints: parsed.hints,
            websub: websub(parsed, feedURL: feedURL),
            entries: [],
            diagnostics: parsed.diagnostics)
    }

    /// Takes the entry, so that its body (a megabyte for a full-text entry) can be let go as
    /// soon as it is sanitised, before the sanitised copy becomes a `String`.
    static func normalize(_ entry: consuming ParsedEntry, feed: ParsedFeed, documentBase: String?, dates: DateRule) -> Entry {
        let permalink = PermalinkRule.permalink(for: entry, format: feed.format, documentBase: documentBase)
        let identity = EntryIDRule.id(for: entry, permalink: permalink)
        let entryBase = URLResolver.resolve("", bases: entry.baseChain, documentBase: documentBase) ?? documentBase
        let sanitizer = HTMLSanitizer(baseURL: entryBase, permalink: permalink, entryID: identity.id)
        var summary: SafeHTML = ""
        if let body = takeRichestText(&entry) { summary = sanitizer.sanitize((consume body).withoutForbiddenCharacters()) }
        let authors = PersonRule.credited(entry, feed: feed, documentBase: documentBase)
        let published = dates.kept(entry.published), updated = dates.kept(entry.updated)
        return Entry(
            id: identity.id,
            idSource: identity.source,
            permalink: permalink,
            title: (entry.title ?? entry.mediaTitle).map { PlainText.title($0.withoutForbiddenCharacters(), format: feed.format) } ?? "",
            summary: summary,
            pubdate: published ?? updated,
            updated: updated,
            author: PersonRule.byline(authors),
            authors: authors,
            enclosures: EnclosureRule.enclosures(entry, documentBase: documentBase),
            image: PictureRule.image(entry, documentBase: documentBase),
            categories: CategoryRule.categories(entry.categories))
    }

    /// Content when it has any text, else the summary, moved out of the entry (both are
    /// cleared) so the caller holds the only copy.
    static func takeRichestText(_ entry: inout ParsedEntry) -> FeedText? {
        let content = entry.content.take(), summary = entry.summary.take()
        if let content, !content.isBlank { return content }
        return summary
    }

    /// The first `rel="hub"` and the first `rel="self"` that resolve to web URLs, when the feed
    /// has both (a hub without a topic cannot be subscribed to).
    static func websub(_ parsed: ParsedFeed, feedURL: String?) -> WebSubLinks? {
        func first(_ rel: String) -> String? {
            for candidate in parsed.links where candidate.rel?.trimmingASCIIWhitespace().lowercased() == rel {
                let bases = candidate.baseChain.isEmpty ? parsed.baseChain : candidate.baseChain
                if let url = URLResolver.resolve(candidate.href, bases: bases, documentBase: feedURL), URLResolver.isWebURL(url) {
                    return url
                }
            }
            return nil
        }
        guard let hub = first("hub"), let topic = first("self") else { return nil }
        return WebSubLinks(hub: hub, topic: topic)
    }

    static func siteLink(_ parsed: ParsedFeed, feedURL: String?) -> String? {
        let candidates = [parsed.siteLink].compactMap { $0 } + parsed.links.filter(PermalinkRule.isHTMLAlternate)
        for candidate in candidates {
            let bases = candidate.baseChain.isEmpty ? parsed.baseChain : candidate.baseChain
            if let url = URLResolver.resolve(candidate.href, bases: bases, documentBase: feedURL), URLResolver.isWebURL(url) {
                return url
            }
        }
        return nil
    }
}

/// Normalises a feed's entries one at a time, as a stream parser delivers them, with the rules
/// of ``FeedNormalizer``; remembers only what tells repeated ids apart.
public struct EntryNormalizer {
    private let feedURL: String?
    private let dates: DateRule
    private var resolver = DuplicateIDResolver()

    /// - Parameters: as for ``FeedNormalizer/normalize(_:feedURL:now:)``.
    public init(feedURL: String?, now: Int64) {
        self.feedURL = feedURL
        dates = DateRule(readAt: now)
    }

    /// The entry as it is stored, or `nil` when it repeats an earlier entry of the document.
    /// - Parameter feed: the feed as read so far (its format; the authors Atom entries
    ///   inherit; its channel link, the base for relative links when there is no feed URL).
    public mutating func normalize(_ entry: consuming ParsedEntry, in feed: ParsedFeed) -> Entry? {
        let documentBase = feedURL ?? FeedNormalizer.siteLink(feed, feedURL: nil)
        let writtenDate = entry.published ?? entry.updated
        return resolver.admit(FeedNormalizer.normalize(entry, feed: feed, documentBase: documentBase, dates: dates), writtenDate: writtenDate)
    }
}
