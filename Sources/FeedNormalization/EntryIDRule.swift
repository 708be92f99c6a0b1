import FeedBasics
import FeedModel

/// The one rule for an entry's id.
///
/// 1. The native id (Atom `id`, RSS `guid`, RDF `rdf:about`, JSON Feed `id`), trimmed and
///    otherwise exact: no case folding, no URL rewriting, since publishers compare them exactly.
/// 2. Otherwise the permalink.
/// 3. Otherwise an identifier of another vocabulary the entry carries (`yt:video:` and YouTube's
///    `yt:videoId`): ranked below the permalink so that no id stored before it was read changes.
/// 4. Otherwise `urn:feedmill:entry:` and the first 32 hex digits of SHA-256 over the title,
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
        if let namespaced = entry.namespacedID?.trimmingASCIIWhitespace(), !namespaced.isEmpty {
            return (namespaced, .namespaced)
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
/// The first entry with an id keeps it. A later entry with the same id is told apart only by
/// what identifies an entry, never by what a publisher edits in place (summary, content):
/// its permalink when that differs from the first's, else its title when that differs, else
/// its date. The id gets `#` and 12 hex digits of SHA-256 over that one value (and `-2`,
/// `-3` … should even that collide). A later entry that differs in none of them is the same
/// entry listed twice, perhaps edited, and is dropped. So editing a duplicated entry's
/// summary updates its row in place; the suffix depends on the entry, not its position. The
/// date is the one the feed wrote, before ``DateRule`` (which depends on when the feed was
/// read) may set it aside, so the id never depends on the time of reading.
struct DuplicateIDResolver {
    /// What tells the first entry of each id apart, not the whole entry: a streamed feed of
    /// any length keeps only this much per entry.
    private struct Identifying {
        var permalink: String?
        var title: String
        var writtenDate: Int64?
    }

    private var seen: [String: Identifying] = [:]
    private var taken: Set<String> = []

    /// The entry with a unique id, or `nil` when it repeats an earlier entry.
    /// - Parameter writtenDate: its published (else updated) date as read from the feed.
    mutating func admit(_ entry: Entry, writtenDate: Int64?) -> Entry? {
        guard let first = seen[entry.id] else {
            seen[entry.id] = Identifying(permalink: entry.permalink, title: entry.title, writtenDate: writtenDate)
            taken.insert(entry.id)
            return entry
        }
        let identifying: String
        if entry.permalink != first.permalink {
            identifying = "permalink\u{1F}" + (entry.permalink ?? "")
        } else if entry.title != first.title {
            identifying = "title\u{1F}" + entry.title
        } else if writtenDate != first.writtenDate {
            identifying = "date\u{1F}" + (writtenDate.map(String.init) ?? "")
        } else {
            return nil
        }
        let stem = entry.id + "#" + String(SHA256.hexDigest(identifying).prefix(12))
        var candidate = stem
        var counter = 2
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
