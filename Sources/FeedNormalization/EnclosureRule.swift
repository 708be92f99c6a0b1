import FeedBasics
import FeedModel

/// An entry's enclosures as clients store them (`items.enclosures_json`).
///
/// - URL: resolved against the enclosure's own base (else the entry's), kept only when http(s);
///   the same URL twice is one enclosure (the first, with the other's type, length or
///   duration where it had none).
/// - type: lowercased; length and duration: whole numbers, 0 or unreadable is unknown (`nil`),
///   as podcast feeds write `length="0"` for "not known".
/// - `itunes:duration` (`H:MM:SS`, `MM:SS` or seconds) is the playing time of the entry's first
///   audio or video enclosure (else of its first enclosure, when that has no type), unless the
///   enclosure states its own.
enum EnclosureRule {
    static func enclosures(_ entry: ParsedEntry, documentBase: String?) -> [Enclosure] {
        guard !entry.enclosures.isEmpty else { return [] }
        var result: [Enclosure] = []
        for parsed in entry.enclosures {
            guard let url = WebLink.resolve(parsed.link, fallbackBases: entry.baseChain, documentBase: documentBase) else { continue }
            let enclosure = Enclosure(
                url: url, type: WebLink.shortText(parsed.link.type)?.lowercased(),
                length: parsed.length.flatMap { $0 > 0 ? $0 : nil }, duration: parsed.duration.flatMap { $0 > 0 ? $0 : nil })
            if let same = result.firstIndex(where: { $0.url == url }) {
                result[same].type = result[same].type ?? enclosure.type
                result[same].length = result[same].length ?? enclosure.length
                result[same].duration = result[same].duration ?? enclosure.duration
            } else {
                result.append(enclosure)
            }
        }
        if let written = entry.itunesDuration, let seconds = seconds(written), let played = playedIndex(result),
            result[played].duration == nil
        {
            result[played].duration = seconds
        }
        return result
    }

    private static func playedIndex(_ enclosures: [Enclosure]) -> Int? {
        if let media = enclosures.firstIndex(where: { $0.type?.hasPrefix("audio/") == true || $0.type?.hasPrefix("video/") == true }) {
            return media
        }
        return enclosures.first?.type == nil && !enclosures.isEmpty ? 0 : nil
    }

    /// `1:02:03`, `62:03`, `3723` (a fraction of a second, `3723.5`, is cut) as seconds; `nil`
    /// for anything else and for 0.
    static func seconds(_ written: String) -> Int64? {
        let parts = written.trimmingASCIIWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total: Int64 = 0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            let whole = isLast ? (part.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? part) : part
            guard !whole.isEmpty, whole.count <= 9, whole.allSatisfy(\.isASCIIDigit), let value = Int64(whole) else { return nil }
            if isLast, whole.count < part.count, !part.dropFirst(whole.count + 1).allSatisfy(\.isASCIIDigit) { return nil }
            total = total * 60 + value
        }
        return total > 0 ? total : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
