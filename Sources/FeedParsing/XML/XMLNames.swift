import CLibXML2

/// The vocabularies a feed reader cares about. Several URIs map to one family: every RSS
/// element namespace is `.rss`, both Atom versions are `.atom`.
enum XMLNamespace: Equatable {
    case none, rss, rdf, atom, atom03, content, dc, dcterms, media, feedburner, sy, xhtml, xml, itunes, youtube, other

    static func classify(uri: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> XMLNamespace {
        guard let uri else {
            // Undeclared prefixes are common (`<dc:creator>` with no xmlns:dc); go by the prefix.
            guard let prefix else { return .none }
            return byPrefix[string(prefix)] ?? .other
        }
        let written = string(uri)
        return byURI[written] ?? byLowercasedURI[written.lowercased()] ?? (isUserLandRSS(written) ? .rss : .other)
    }

    /// UserLand's RSS namespaces (`http://backend.userland.com/rss`, `…/rss2`, `…/rss2.1`, as
    /// early RSS 2.0 drafts and their generators wrote them): every URI under that path is RSS,
    /// as feedparser matches it.
    private static func isUserLandRSS(_ uri: String) -> Bool {
        uri.hasPrefix("http://backend.userland.com/rss")
    }

    /// Whether elements in this namespace are Atom elements (1.0 or 0.3).
    var isAtom: Bool { self == .atom || self == .atom03 }

    private static let byURI: [String: XMLNamespace] = [
        "http://purl.org/rss/1.0/": .rss,
        "http://my.netscape.com/rdf/simple/0.9/": .rss,
        "http://backend.userland.com/rss2": .rss,
        "http://blogs.law.harvard.edu/tech/rss": .rss,
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#": .rdf,
        "http://www.w3.org/2005/Atom": .atom,
        "http://purl.org/atom/ns#": .atom03,
        "http://purl.org/rss/1.0/modules/content/": .content,
        "http://purl.org/dc/elements/1.1/": .dc,
        "http://purl.org/dc/terms/": .dcterms,
        "http://search.yahoo.com/mrss/": .media,
        "http://search.yahoo.com/mrss": .media,
        "http://rssnamespace.org/feedburner/ext/1.0": .feedburner,
        // Apple's podcast namespace, in the spellings feeds use (feedparser's list; any case).
        "http://www.itunes.com/dtds/podcast-1.0.dtd": .itunes,
        "https://www.itunes.com/dtds/podcast-1.0.dtd": .itunes,
        "http://example.com/DTDs/PodCast-1.0.dtd": .itunes,
        "http://purl.org/rss/1.0/modules/syndication/": .sy,
        "http://www.w3.org/1999/xhtml": .xhtml,
        "http://www.w3.org/XML/1998/namespace": .xml,
        // YouTube's channel feeds: `yt:videoId`, the one identifier an entry may have.
        "http://www.youtube.com/xml/schemas/2015": .youtube,
    ]

    /// Namespace names compared without case, as feedparser compares them: feeds write
    /// `http://www.itunes.com/DTDs/Podcast-1.0.dtd` and `HTTP://PURL.ORG/DC/ELEMENTS/1.1/`.
    /// Classification is cached per interned URI, so this is looked at once per namespace.
    private static let byLowercasedURI: [String: XMLNamespace] = Dictionary(
        byURI.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })

    private static let byPrefix: [String: XMLNamespace] = [
        "content": .content, "dc": .dc, "dcterms": .dcterms, "media": .media, "feedburner": .feedburner,
        "sy": .sy, "atom": .atom, "rdf": .rdf, "xhtml": .xhtml, "xml": .xml, "itunes": .itunes, "yt": .youtube,
    ]
}

/// The local names Feedmill acts on; every other name is `.other`.
enum LocalName: String {
    case rss, channel, item, feed, entry, RDF
    case title, link, description, guid, pubDate, author, category, enclosure, source, image, textinput, textInput
    case ttl, skipHours, hour, skipDays, day
    case encoded, date, creator, subject, modified, issued, created
    case id, summary, content, published, updated, name, email, contributor
    case origLink, thumbnail, group, comments, categories, videoId
    case duration, subtitle, tagline, icon, logo, language, url, uri
    case updatePeriod, updateFrequency
    case html, div, base, about
    case other
}

/// Maps libxml2's interned name pointers to ``LocalName``s, so that each distinct name is
/// turned into a Swift string once per document rather than once per element.
struct LocalNameCache {
    private var cache: [UnsafeRawPointer: LocalName] = [:]

    mutating func name(_ pointer: UnsafePointer<xmlChar>) -> LocalName {
        let key = UnsafeRawPointer(pointer)
        if let known = cache[key] { return known }
        let name = LocalName(rawValue: string(pointer)) ?? .other
        cache[key] = name
        return name
    }
}

func string(_ pointer: UnsafePointer<xmlChar>) -> String {
    String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
}

/// The attributes libxml2's SAX2 `startElementNs` passes: five pointers per attribute
/// (local name, prefix, URI, value start, value end), values not NUL-terminated.
struct SAXAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    func value(_ localName: String, in namespace: XMLNamespace? = nil) -> String? {
        guard let base else { return nil }
        for index in 0..<count {
            let slot = base + index * 5
            guard let namePointer = slot[0], string(namePointer) == localName else { continue }
            if let namespace, XMLNamespace.classify(uri: slot[2], prefix: slot[1]) != namespace { continue }
            guard let start = slot[3], let end = slot[4] else { return "" }
            return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        }
        return nil
    }

    /// `(qualified name, value)` pairs in document order, for re-serialising markup.
    func all() -> [(name: String, value: String)] {
        guard let base else { return [] }
        return (0..<count).compactMap { index in
            let slot = base + index * 5
            guard let namePointer = slot[0], let start = slot[3], let end = slot[4] else { return nil }
            var name = string(namePointer)
            if let prefix = slot[1] { name = string(prefix) + ":" + name }
            return (name, String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self))
        }
    }
}

/// Namespace classification cached by libxml2's interned URI (or, for undeclared prefixes,
/// prefix) pointer.
struct NamespaceCache {
    private var byURI: [UnsafeRawPointer: XMLNamespace] = [:]
    private var byPrefix: [UnsafeRawPointer: XMLNamespace] = [:]

    mutating func namespace(uri: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> XMLNamespace {
        if let uri {
            if let known = byURI[UnsafeRawPointer(uri)] { return known }
            let namespace = XMLNamespace.classify(uri: uri, prefix: nil)
            byURI[UnsafeRawPointer(uri)] = namespace
            return namespace
        }
        guard let prefix else { return .none }
        if let known = byPrefix[UnsafeRawPointer(prefix)] { return known }
        let namespace = XMLNamespace.classify(uri: nil, prefix: prefix)
        byPrefix[UnsafeRawPointer(prefix)] = namespace
        return namespace
    }
}
