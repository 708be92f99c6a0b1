import FeedBasics
import FeedModel

/// Who an entry credits, and the byline a reader shows.
///
/// - Who: the entry's own authors (Atom `author`, RSS `author`, `dc:creator`, JSON Feed
///   `authors`); else its `itunes:author`; else, for Atom, the feed's authors (RFC 4287
///   §4.2.1); else the channel's `itunes:author` (a podcast's episodes are the show's). Both
///   feed-level ones count when they come before the entry, as entries are normalised as they
///   stream in. Not inherited: JSON Feed's top-level `authors` (items are streamed before the
///   top-level members are read). Atom `contributor`s are not authors and are not read.
/// - A person written as one string is split: `joe@example.com (Joe)` and `Joe (joe@example.com)`,
///   `Joe <joe@example.com>`, a bare address (an address, no name). Anything else is a name.
/// - Names are plain text (HTML decoded and stripped, as titles); an address must look like one
///   (`mailto:` dropped) or is left out; a URI must resolve to http(s) or is left out.
/// - People with the same display name are one person (the first, with the other's address or
///   URI where it had none); a person with neither name nor address is dropped.
/// - Byline: the display names (name, else address) joined by ", ".
enum PersonRule {
    static func credited(_ entry: ParsedEntry, feed: ParsedFeed, documentBase: String?) -> [Person] {
        // In order of precedence, without building a list of the candidates for every entry.
        var found = normalized(entry.authors, bases: entry.baseChain, documentBase: documentBase)
        if found.isEmpty { found = normalized(entry.podcastAuthors, bases: entry.baseChain, documentBase: documentBase) }
        if found.isEmpty, feed.format == .atom { found = normalized(feed.authors, bases: feed.baseChain, documentBase: documentBase) }
        if found.isEmpty { found = normalized(feed.podcastAuthors, bases: feed.baseChain, documentBase: documentBase) }
        return found
    }

    /// Built without an intermediate list: one entry in three has exactly one author.
    static func byline(_ people: [Person]) -> String? {
        var byline: String?
        for name in people.lazy.compactMap(\.displayName) {
            if byline == nil { byline = name } else { byline? += ", " + name }
        }
        return byline
    }

    static func normalized(_ people: [ParsedPerson], bases: [String], documentBase: String?) -> [Person] {
        var result: [Person] = []
        guard !people.isEmpty else { return result }
        for parsed in people {
            guard let person = person(parsed, bases: bases, documentBase: documentBase) else { continue }
            if let same = result.firstIndex(where: { $0.displayName == person.displayName }) {
                if result[same].email == nil { result[same].email = person.email }
                if result[same].uri == nil { result[same].uri = person.uri }
            } else {
                result.append(person)
            }
        }
        return result
    }

    /// Each text is filtered of forbidden characters once, first (filtering copies the text).
    static func person(_ parsed: ParsedPerson, bases: [String], documentBase: String?) -> Person? {
        var name = parsed.name.map(XMLCharacters.filtered), email = parsed.email.map(XMLCharacters.filtered)
        if parsed.isOneString, let text = name {
            (name, email) = split(text.trimmingASCIIWhitespace())
        }
        let person = Person(
            name: name.map { PlainText.fromHTML($0) }.flatMap { $0.isEmpty ? nil : $0 },
            email: email.flatMap(address),
            uri: parsed.uri.flatMap { WebLink.resolve($0, fallbackBases: bases, documentBase: documentBase) })
        return person.displayName == nil ? nil : person
    }

    /// One string into name and address, by the shapes feeds write.
    static func split(_ text: String) -> (name: String?, email: String?) {
        if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
            let outer = text[..<open].trimmingASCIIWhitespace()
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingASCIIWhitespace()
            if address(outer) != nil { return (inner.isEmpty ? nil : inner, outer) }
            if address(inner) != nil { return (outer.isEmpty ? nil : outer, inner) }
        }
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            let inner = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingASCIIWhitespace()
            if address(inner) != nil {
                let outer = text[..<open].trimmingASCIIWhitespace()
                return (outer.isEmpty ? nil : outer, inner)
            }
        }
        if address(text) != nil { return (nil, text) }
        return (text, nil)
    }

    /// The address without `mailto:`, when it looks like one: something, `@`, something, and
    /// no white space, brackets, quotes or commas. `text` is already filtered.
    static func address(_ text: String) -> String? {
        var text = text.trimmingASCIIWhitespace()
        if text.utf8.count > 7, text.utf8.prefix(7).lazy.map({ $0 | 0x20 }).elementsEqual("mailto:".utf8) { text = String(text.dropFirst(7)) }
        guard let at = text.firstIndex(of: "@"), at != text.startIndex, text.index(after: at) != text.endIndex else { return nil }
        guard !text.utf8.contains(where: refusedInAddress.contains) else { return nil }
        return text
    }

    private static let refusedInAddress: Set<UInt8> = Set(" \t\n\r<>()\",;[]".utf8)
}
