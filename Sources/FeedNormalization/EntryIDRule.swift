import FeedModel

/// The one rule for an entry's id.
///
/// 1. The native id (Atom `id`, RSS `guid`, RDF `rdf:about`, JSON Feed `id`), trimmed and
///    otherwise exact: no case folding, no URL rewriting, since publishers compare them exactly.
/// 2. Otherwise the permalink.
/// 3. Otherwise `urn:feedmill:entry:` and the first 32 hex digits of SHA-256 over the title,
///    the date text and the summary *as written in the feed* (not as normalised), so that a
///    later change to Feedmill's normalisation never changes a stored id.
///
/// The result is never empty and depends on nothing but the entry's own content.
public enum EntryIDRule {
    public static func id(for entry: ParsedEntry, permalink: String?) -> (id: String, source: EntryIDSource) {
        if let native = entry.nativeID?.trimmingASCIIWhitespace(), !native.isEmpty {
            return (native, .native)
        }
        if let permalink, !permalink.isEmpty {
            return (permalink, .permalink)
        }
        return ("urn:feedmill:entry:" + contentHash(entry), .contentHash)
    }

    static func contentHash(_ entry: ParsedEntry) -> String {
        let date = entry.publishedText ?? entry.updatedText ?? ""
        let body = entry.content?.value ?? entry.summary?.value ?? ""
        let fields = [entry.title?.value ?? "", date, body].map { $0.trimmingASCIIWhitespace() }
        return String(SHA256.hexDigest(fields.joined(separator: "\u{1F}")).prefix(32))
    }
}

/// Tells apart entries that share an id within one document.
///
/// The first entry with an id keeps it. A later entry with the same id and the same
/// permalink, title, date and summary is the same entry listed twice and is dropped. A later
/// entry that differs gets `#` and 12 hex digits of SHA-256 over its permalink, title, date
/// and summary appended (and `-2`, `-3` … should even that collide). The suffix depends on
/// the entry's content, not its position, so reordering the feed does not swap ids.
struct DuplicateIDResolver {
    private var seen: [String: Entry] = [:]
    private var taken: Set<String> = []

    /// The entry with a unique id, or `nil` when it repeats an earlier entry exactly.
    mutating func admit(_ entry: Entry) -> Entry? {
        guard let first = seen[entry.id] else {
            seen[entry.id] = entry
            taken.insert(entry.id)
            return entry
        }
        if first.permalink == entry.permalink, first.title == entry.title, first.pubdate == entry.pubdate,
            first.summary == entry.summary
        {
            return nil
        }
        let fingerprint = [entry.permalink ?? "", entry.title, entry.pubdate.map(String.init) ?? "", entry.summary]
            .joined(separator: "\u{1F}")
        var candidate = entry.id + "#" + String(SHA256.hexDigest(fingerprint).prefix(12))
        var counter = 2
        let stem = candidate
        while taken.contains(candidate) {
            candidate = stem + "-\(counter)"
            counter += 1
        }
        taken.insert(candidate)
        var renamed = entry
        renamed.id = candidate
        return renamed
    }
}
