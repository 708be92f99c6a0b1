import CLibXML2
import FeedBasics
import FeedModel
import Foundation

/// What each element means, by format: the vocabulary half of ``FeedElementHandler``.
extension FeedElementHandler {
    private var format: FeedFormat { rootFormat ?? .rss }

    /// RSS elements: no namespace, or one of the RSS namespaces, in an RSS or RDF document.
    private func isRSS(_ namespace: XMLNamespace) -> Bool {
        format != .atom && (namespace == .none || namespace == .rss)
    }

    /// Atom elements: either Atom namespace anywhere; no namespace in an Atom document.
    private func isAtom(_ namespace: XMLNamespace) -> Bool {
        namespace.isAtom || (format == .atom && namespace == .none)
    }

    func startRoot(
        namespace: XMLNamespace, name: LocalName, localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?,
        attributes: SAXAttributes, pushedBase: Bool
    ) {
        var parsed: ParsedFeed
        switch name {
        case .rss where namespace == .none || namespace == .rss:
            parsed = ParsedFeed(format: .rss)
            parsed.version = attributes.value("version") ?? "2.0"
        case .RDF where namespace == .rdf:
            parsed = ParsedFeed(format: .rdf)
            parsed.version = "1.0"
        case .feed where namespace.isAtom || namespace == .none:
            parsed = ParsedFeed(format: .atom)
            parsed.version = namespace == .atom03 ? "0.3" : (attributes.value("version") ?? "1.0")
            parsed.language = attributes.value("lang", in: .xml)
        case .entry where namespace.isAtom:
            // An Atom entry document (RFC 4287 §4.1.2): a feed of one entry.
            parsed = ParsedFeed(format: .atom)
            parsed.version = namespace == .atom03 ? "0.3" : "1.0"
            parsed.language = attributes.value("lang", in: .xml)
            parsed.baseChain = baseChain
            rootFormat = .atom
            feed = parsed
            startEntry(attributes: attributes, pushedBase: pushedBase)
            return
        case _ where namespace == .none && string(localName) == "CHANNEL":
            startCDFRoot(attributes: attributes, pushedBase: pushedBase)
            return
        case .html:
            // A page may wrap a feed (`<html><body><feed xmlns=…Atom>`): keep looking inside;
            // a page with none is not a feed (``finish()`` says so).
            sawHTMLRoot = true
            push(.other, pushedBase)
            return
        case _ where sawHTMLRoot:
            push(.other, pushedBase)
            return
        default:
            let qualified = (prefix.map { string($0) + ":" } ?? "") + string(localName)
            stop(.notAFeed(found: "an XML document whose root element is <\(qualified)>"))
            return
        }
        parsed.baseChain = baseChain
        rootFormat = parsed.format
        feed = parsed
        push(.root, pushedBase)
    }

    func startInFeed(namespace: XMLNamespace, name: LocalName, attributes: SAXAttributes, pushedBase: Bool) {
        let rss = isRSS(namespace)
        let atom = isAtom(namespace)
        switch name {
        case .item where rss, .entry where atom, .item where format == .atom && (namespace == .none || namespace.isAtom):
            // An RSS `<item>` in an Atom feed is read as an entry too, as feedparser does.
            startEntry(attributes: attributes, pushedBase: pushedBase)
        case .channel where rss, .skipHours where rss, .skipDays where rss:
            push(.container, pushedBase)
        case .image where rss:
            push(.feedImage, pushedBase)
        case .textinput where rss, .textInput where rss, .entry, .item:
            ignoredFrameIndex = stack.count
            push(.ignored, pushedBase)
        case .title where rss || namespace == .dc:
            collect(.feedTitle, kind: .html, element: "title", pushedBase: pushedBase)
        case .title where atom:
            let construct = textConstruct(attributes, namespace)
            collect(
                .feedTitle, kind: construct.kind, capturesMarkup: construct.kind == .xhtml, base64: construct.base64,
                element: "title", pushedBase: pushedBase)
        case .link where rss:
            collect(.feedLink, element: "link", pushedBase: pushedBase)
        case .link where atom:
            guard let link = linkFromAttributes(attributes) else { return collectLinkText(attributes, pushedBase: pushedBase) }
            feed?.links.append(link)
            push(.other, pushedBase)
        case .author where atom:
            authorFrameIndex = stack.count
            push(.author, pushedBase)
        case .description where rss, .subtitle where atom, .tagline where atom, .language where rss || namespace == .dc,
            .icon where atom, .logo where atom, .author where namespace == .itunes, .image where namespace == .itunes:
            startFeedAboutElement(namespace: namespace, name: name, attributes: attributes, pushedBase: pushedBase)
        case .ttl where rss:
            collect(.ttl, element: "ttl", pushedBase: pushedBase)
        case .hour where rss:
            collect(.skipHour, element: "hour", pushedBase: pushedBase)
        case .day where rss:
            collect(.skipDay, element: "day", pushedBase: pushedBase)
        case .updatePeriod where namespace == .sy:
            collect(.updatePeriod, element: "sy:updatePeriod", pushedBase: pushedBase)
        case .updateFrequency where namespace == .sy:
            collect(.updateFrequency, element: "sy:updateFrequency", pushedBase: pushedBase)
        default:
            push(.other, pushedBase)
        }
    }

    func startInEntry(namespace: XMLNamespace, name: LocalName, attributes: SAXAttributes, pushedBase: Bool) {
        let rss = isRSS(namespace)
        let atom = isAtom(namespace)
        switch (namespace, name) {
        case (_, .item) where rss, (_, .entry) where atom:
            // A new entry while one is open: the previous one was never closed.
            while isInEntry, !stack.isEmpty { popFrame() }
            startInFeed(namespace: namespace, name: name, attributes: attributes, pushedBase: pushedBase)
        case (_, .title) where rss:
            collect(.title, kind: .html, element: "title", pushedBase: pushedBase)
        case (_, .link) where rss:
            if attributes.value("href") != nil {
                // An Atom-style `<link href=…/>` without a namespace, as some podcast feeds write.
                startAtomEntryChild(namespace: namespace, name: name, attributes: attributes, pushedBase: pushedBase)
            } else {
                collect(.link, element: "link", pushedBase: pushedBase)
            }
        case (_, .description) where rss:
            collect(.summary, kind: .html, capturesMarkup: true, element: "description", pushedBase: pushedBase)
        case (_, .guid) where rss:
            if attributes.value("isPermaLink")?.lowercased() == "false" { entry?.guidIsPermaLink = false }
            collect(.nativeID, element: "guid", pushedBase: pushedBase)
        case (_, .pubDate) where rss:
            collect(.published(rank: 1), element: "pubDate", pushedBase: pushedBase)
        case (_, .author) where rss, (.dc, .creator), (.dc, .author):
            collect(.author, element: "author", pushedBase: pushedBase)
        case (_, .category) where rss, (.dc, .subject):
            let scheme = name == .category ? attributes.value("domain") : nil
            collect(.category(scheme: scheme), element: name.rawValue, pushedBase: pushedBase)
        case (_, .enclosure) where rss:
            // `href` where RSS says `url`: some publishers write it Atom's way.
            appendEnclosure(
                url: attributes.value("url") ?? attributes.value("href"), type: attributes.value("type"),
                length: attributes.value("length"))
            push(.other, pushedBase)
        case (_, .categories) where rss || atom:
            // `<categories><category>…</category></categories>`: a wrapper some publishers put
            // around an item's categories; they are the entry's own.
            push(.container, pushedBase)
        case (.youtube, .videoId):
            collect(.namespacedID(prefix: "yt:video:"), element: "yt:videoId", pushedBase: pushedBase)
        case (.content, .encoded):
            collect(.content, kind: .html, capturesMarkup: true, element: "content:encoded", pushedBase: pushedBase)
        case (.dc, .date):
            collect(.published(rank: 2), element: "dc:date", pushedBase: pushedBase)
        case (.dc, .title):
            collect(.secondaryTitle, kind: .html, element: "dc:title", pushedBase: pushedBase)
        case (.dcterms, .modified):
            collect(.updated, element: "dcterms:modified", pushedBase: pushedBase)
        case (.dcterms, .issued), (.dcterms, .created):
            collect(.published(rank: 3), element: "dcterms:issued", pushedBase: pushedBase)
        case (.feedburner, .origLink):
            collect(.originalLink, element: "feedburner:origLink", pushedBase: pushedBase)
        case (.media, .thumbnail):
            if let url = attributes.value("url") { entry?.thumbnails.append(FeedLink(href: url, baseChain: baseChain)) }
            push(.other, pushedBase)
        case (.media, .content):
            appendEnclosure(
                url: attributes.value("url"), type: attributes.value("type"), length: attributes.value("fileSize"),
                duration: attributes.value("duration"))
            if attributes.value("medium") == "image", let url = attributes.value("url") {
                entry?.thumbnails.append(FeedLink(href: url, baseChain: baseChain))
            }
            // Its `media:title` and `media:thumbnail` describe the entry too.
            push(.container, pushedBase)
        case (.media, .title):
            let kind: FeedText.Kind = attributes.value("type")?.lowercased() == "html" ? .html : .text
            collect(.mediaTitle, kind: kind, element: "media:title", pushedBase: pushedBase)
        case (.media, .group):
            push(.container, pushedBase)
        case (.media, .category):
            collect(
                .category(scheme: attributes.value("scheme"), label: attributes.value("label")), element: "media:category",
                pushedBase: pushedBase)
        case (.itunes, _):
            startPodcastEntryElement(name: name, attributes: attributes, pushedBase: pushedBase)
        default:
            if atom || rss && namespace == .none && Self.atomNamesReadInRSS.contains(name) {
                startAtomEntryChild(namespace: namespace, name: name, attributes: attributes, pushedBase: pushedBase)
            } else {
                push(.other, pushedBase)
            }
        }
    }

    /// Atom element names some RSS 2.0 publishers use in items without a namespace (podcast
    /// generators, mostly): read as Atom would, so the entry keeps its id, date and summary.
    private static let atomNamesReadInRSS: Set<LocalName> = [.id, .updated, .published, .summary, .modified, .issued]

    private func startAtomEntryChild(namespace: XMLNamespace, name: LocalName, attributes: SAXAttributes, pushedBase: Bool) {
        switch name {
        case .id:
            collect(.nativeID, element: "id", pushedBase: pushedBase)
        case .title:
            let construct = textConstruct(attributes, namespace)
            collect(
                .title, kind: construct.kind, capturesMarkup: construct.kind == .xhtml, base64: construct.base64,
                element: "title", pushedBase: pushedBase)
        case .link:
            guard let link = linkFromAttributes(attributes) else { return collectLinkText(attributes, pushedBase: pushedBase) }
            entry?.links.append(link)
            if link.rel?.lowercased() == "enclosure" {
                appendEnclosure(url: link.href, type: link.type, length: attributes.value("length"))
            }
            push(.other, pushedBase)
        case .summary, .content:
            let field: TextField = name == .summary ? .summary : .content
            if name == .content, attributes.value("src") != nil {
                push(.other, pushedBase)
            } else if let construct = contentConstruct(attributes, namespace) {
                collect(
                    field, kind: construct.kind, capturesMarkup: construct.kind == .xhtml, base64: construct.base64,
                    element: name.rawValue, pushedBase: pushedBase)
            } else {
                push(.other, pushedBase)
            }
        case .published:
            collect(.published(rank: 1), element: "published", pushedBase: pushedBase)
        case .issued:
            // Atom 0.3's name for it: an entry that has both (migrating generators) means `published`.
            collect(.published(rank: 2), element: "issued", pushedBase: pushedBase)
        case .created:
            collect(.published(rank: 3), element: "created", pushedBase: pushedBase)
        case .updated, .modified:
            collect(.updated, element: name.rawValue, pushedBase: pushedBase)
        case .author:
            authorFrameIndex = stack.count
            push(.author, pushedBase)
        case .category:
            startAtomCategory(attributes: attributes, pushedBase: pushedBase)
        case .source, .contributor:
            ignoredFrameIndex = stack.count
            push(.ignored, pushedBase)
        default:
            push(.other, pushedBase)
        }
    }

    /// Atom's `name`, `email`, `uri` (0.3: `url`); the same names without a namespace in an
    /// RSS `author` that has child elements.
    func startInAuthor(namespace: XMLNamespace, name: LocalName, pushedBase: Bool) {
        let personal = isAtom(namespace) || namespace == .none || namespace == .rss || namespace == .itunes
        switch name {
        case .name where personal:
            collect(.authorName, element: "name", pushedBase: pushedBase)
        case .email where personal:
            collect(.authorEmail, element: "email", pushedBase: pushedBase)
        case .uri where personal, .url where personal:
            collect(.authorURI, element: name.rawValue, pushedBase: pushedBase)
        default:
            push(.other, pushedBase)
        }
    }

    /// Elements that can only be children of an RSS item: seeing one inside a description
    /// means the description's raw HTML left an element open.
    func isEntryLevelElement(namespace: XMLNamespace, name: LocalName) -> Bool {
        guard format != .atom, let active = collector, active.capturesMarkup, isInEntry else { return false }
        switch namespace {
        case .content, .dc, .dcterms, .feedburner, .media, .atom, .atom03, .rdf, .itunes:
            return true
        case .none, .rss:
            switch name {
            case .item, .title, .link, .description, .guid, .pubDate, .author, .category, .enclosure, .comments, .source:
                return true
            default:
                return false
            }
        default:
            return false
        }
    }

    func startEntry(attributes: SAXAttributes, pushedBase: Bool) {
        var started = ParsedEntry()
        started.baseChain = baseChain
        if format == .rdf, let about = attributes.value("about", in: .rdf) ?? attributes.value("about") {
            started.nativeID = about
        }
        entry = started
        entryFrameIndex = stack.count
        publishedRank = Int.max
        push(.entry, pushedBase)
    }

    func finishEntry() {
        // Handed over, not lent: the receiver may let go of the entry's text (a megabyte for
        // a full-text entry) before it stores what it made of it.
        if let finished = entry.take(), let feed { deliver(consume finished, feed) }
        entry = nil
        entryFrameIndex = nil
    }

    /// A person needs a name or an address: one with only a URI has nothing to show.
    func finishAuthor() {
        if pendingAuthorName != nil || pendingAuthorEmail != nil {
            let person = ParsedPerson(name: pendingAuthorName, email: pendingAuthorEmail, uri: pendingAuthorURI)
            switch (isInEntry, pendingAuthorIsPodcast) {
            case (true, false): entry?.authors.append(person)
            case (true, true): entry?.podcastAuthors.append(person)
            case (false, false): feed?.authors.append(person)
            case (false, true): feed?.podcastAuthors.append(person)
            }
        }
        pendingAuthorName = nil
        pendingAuthorEmail = nil
        pendingAuthorURI = nil
        pendingAuthorIsPodcast = false
        authorFrameIndex = nil
    }

    private func linkFromAttributes(_ attributes: SAXAttributes) -> FeedLink? {
        guard let href = attributes.value("href") else { return nil }
        return FeedLink(href: href, rel: attributes.value("rel"), type: attributes.value("type"), baseChain: baseChain)
    }

    /// An Atom `<link>` without `href` whose URL is its text, as Atom 0.3-era feeds wrote it
    /// (`<link rel="alternate">https://…</link>`): read as if the text were its `href`.
    private func collectLinkText(_ attributes: SAXAttributes, pushedBase: Bool) {
        collect(
            .linkText(rel: attributes.value("rel"), type: attributes.value("type"), length: attributes.value("length")), element: "link",
            pushedBase: pushedBase)
    }

    /// Length and duration as whole numbers (a fractional duration, `12.5`, cut to `12`);
    /// anything else is unknown.
    func appendEnclosure(url: String?, type: String?, length: String?, duration: String? = nil) {
        guard let url, !url.isEmpty else { return }
        let link = FeedLink(href: url, type: type, baseChain: baseChain)
        let seconds = duration.flatMap { Double($0.trimmed) }.flatMap { $0.isFinite && $0 >= 0 && $0 < 1e12 ? Int64($0) : nil }
        entry?.enclosures.append(ParsedEnclosure(link: link, length: length.flatMap { Int64($0.trimmed) }, duration: seconds))
    }

    /// Atom text constructs: `text` (default), `html`, `xhtml`, or a MIME type (Atom 0.3).
    func textConstruct(_ attributes: SAXAttributes, _ namespace: XMLNamespace) -> (kind: FeedText.Kind, base64: Bool) {
        contentConstruct(attributes, namespace) ?? (.text, false)
    }

    /// How to read an Atom text or content element: its kind, and whether it is base64;
    /// `nil` for inline XML of another vocabulary, which Feedmill cannot show.
    ///
    /// Decoded exactly as often as the type says: `mode="escaped"` and `html` once more as
    /// HTML; `mode="base64"` (Atom 0.3) and, in Atom 1.0, any type that is neither text nor
    /// XML (§4.1.3.3, `application/octet-stream` say) from base64, then as its type says.
    /// Atom 0.3 says base64 only with `mode`, which defaults to `xml`: there such a type is text.
    /// Text that is not base64 (a title typed `plain`, which §3.1.1 does not allow anyway) is
    /// read as written, never dropped (``TextCollector/decodedBytes``).
    private func contentConstruct(_ attributes: SAXAttributes, _ namespace: XMLNamespace) -> (kind: FeedText.Kind, base64: Bool)? {
        let type = attributes.value("type")?.lowercased().split(separator: ";").first.map { String($0).trimmed }
        let mode = attributes.value("mode")?.lowercased()
        if mode == "base64" { return (type == "text/html" || type == "html" ? .html : .text, true) }
        if mode == "escaped" { return (.html, false) }
        switch type {
        case nil, "text", "text/plain":
            return (.text, false)
        case "html", "text/html":
            // Atom 0.3 inline (mode="xml", the default) markup is XHTML; 1.0's "html" is escaped.
            return (namespace == .atom03 && type == "text/html" ? .xhtml : .html, false)
        case "xhtml", "application/xhtml+xml":
            return (.xhtml, false)
        case let other? where other.hasPrefix("text/"):
            return (.text, false)
        case let other? where other.hasSuffix("+xml") || other.hasSuffix("/xml"):
            return nil
        default:
            return (.text, namespace != .atom03)
        }
    }
}

extension String {
    /// Without leading and trailing ASCII white space (attribute-sized strings only).
    var trimmed: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !$0.isASCIIWhitespace }),
            let last = bytes.lastIndex(where: { !$0.isASCIIWhitespace })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
