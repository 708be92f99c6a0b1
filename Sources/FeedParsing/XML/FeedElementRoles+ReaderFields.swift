import FeedModel

/// What a reader shows beyond an entry's text: the feed's description, picture and language,
/// podcast (`itunes:`) elements, Atom categories, and people written as elements.
extension FeedElementHandler {
    /// Channel `description`, Atom `subtitle`/`tagline`, `language`/`dc:language`, Atom
    /// `icon`/`logo`, the channel's `itunes:author` and `itunes:image`.
    func startFeedAboutElement(namespace: XMLNamespace, name: LocalName, attributes: SAXAttributes, pushedBase: Bool) {
        switch (namespace, name) {
        case (.itunes, .author):
            collect(.podcastAuthor, element: "itunes:author", pushedBase: pushedBase)
        case (.itunes, .image):
            if let href = attributes.value("href") ?? attributes.value("url") {
                feed?.pictures.append(FeedLink(href: href.trimmed, rel: "itunes:image", baseChain: baseChain))
            }
            push(.other, pushedBase)
        case (_, .description):
            // Raw HTML in it is kept as markup for the plain-text rule to strip; an `<item>`
            // inside it (an element left open) ends it (``endsFeedText``).
            collect(.feedDescription, kind: .html, capturesMarkup: true, element: "description", pushedBase: pushedBase)
        case (_, .subtitle), (_, .tagline):
            let construct = textConstruct(attributes, namespace)
            collect(
                .feedDescription, kind: construct.kind, capturesMarkup: construct.kind == .xhtml, base64: construct.base64,
                element: name.rawValue, pushedBase: pushedBase)
        case (_, .language):
            collect(.feedLanguage, element: "language", pushedBase: pushedBase)
        case (_, .icon), (_, .logo):
            collect(.feedPicture(source: name.rawValue), element: name.rawValue, pushedBase: pushedBase)
        default:
            push(.other, pushedBase)
        }
    }

    /// Inside RSS `<image>`: its `url` is the feed's picture; `title` and `link` describe the
    /// picture, not the feed.
    func startInFeedImage(namespace: XMLNamespace, name: LocalName, pushedBase: Bool) {
        if name == .url, namespace == .none || namespace == .rss {
            collect(.feedPicture(source: "image"), element: "url", pushedBase: pushedBase)
        } else {
            push(.other, pushedBase)
        }
    }

    /// `itunes:author` (the fallback byline), `itunes:duration`, `itunes:image`. Not read:
    /// `itunes:keywords` and `itunes:category` (docs/fidelity.md says why).
    func startPodcastEntryElement(name: LocalName, attributes: SAXAttributes, pushedBase: Bool) {
        switch name {
        case .author:
            collect(.podcastAuthor, element: "itunes:author", pushedBase: pushedBase)
        case .duration:
            collect(.itunesDuration, element: "itunes:duration", pushedBase: pushedBase)
        case .image:
            if entry?.itunesImage == nil, let href = attributes.value("href") ?? attributes.value("url") {
                let link = FeedLink(href: href.trimmed, baseChain: baseChain)
                entry?.mutate { $0.itunesImage = link }
            }
            push(.other, pushedBase)
        default:
            push(.other, pushedBase)
        }
    }

    /// Atom `category`: `term`, `label`, `scheme` attributes; a category with neither term nor
    /// label gives its text as the term, as some generators write it.
    func startAtomCategory(attributes: SAXAttributes, pushedBase: Bool) {
        let term = attributes.value("term"), label = attributes.value("label"), scheme = attributes.value("scheme")
        if term != nil || label != nil {
            entry?.mutate { $0.categories.append(ParsedCategory(term: term, label: label, scheme: scheme)) }
            push(.other, pushedBase)
        } else {
            collect(.category(scheme: scheme), element: "category", pushedBase: pushedBase)
        }
    }

    /// A person being read as one string turned out to have child elements: read them as an
    /// Atom author's instead (`name`, `email`, `uri`); the text gathered so far (white space
    /// between the tags) is dropped.
    func startPersonElements(frameIndex: Int) {
        if case .podcastAuthor? = collector?.field { pendingAuthorIsPodcast = true }
        collector = nil
        stack[frameIndex].role = .author
        authorFrameIndex = frameIndex
    }
}
