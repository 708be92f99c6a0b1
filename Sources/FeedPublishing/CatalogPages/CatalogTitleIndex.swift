import Foundation

/// The title index's rules, shared by the publisher and (as written in the client contract)
/// every client that searches it.
public enum CatalogTitleIndex {
    /// Most titles a chunk holds before it is split by the next character.
    public static let chunkLimit = 2_000
    /// A prefix this long is never split further (titles that share it all stay in one chunk).
    static let deepestPrefix = 12

    /// What a title is compared as: case, diacritics and width folded, runs of white space as
    /// one space, none at either end (`"  Le Monde — À la une "` → `"le monde — a la une"`).
    public static func fold(_ title: String) -> String {
        let folded = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Splits titles (sorted by key's UTF-8, then feedid) into chunks: all under one prefix
    /// while they fit, else one chunk per next character (titles exactly the prefix in a chunk
    /// of their own). A pure function of the titles: a title added changes only its chunk
    /// (and its parents' split, when it crosses the limit), so the other chunks keep their
    /// bytes and names.
    static func chunks(_ titles: ArraySlice<CatalogTitle>, prefix: [Unicode.Scalar] = []) -> [(prefix: String, titles: ArraySlice<CatalogTitle>)] {
        guard titles.count > chunkLimit, prefix.count < deepestPrefix else { return [(String(String.UnicodeScalarView(prefix)), titles)] }
        var result: [(prefix: String, titles: ArraySlice<CatalogTitle>)] = []
        var start = titles.startIndex
        while start < titles.endIndex {
            let scalars = Array(titles[start].key.unicodeScalars)
            let next = scalars.count > prefix.count ? scalars[prefix.count] : nil
            var end = start + 1
            while end < titles.endIndex {
                let other = Array(titles[end].key.unicodeScalars)
                if (other.count > prefix.count ? other[prefix.count] : nil) != next { break }
                end += 1
            }
            if let next {
                result += chunks(titles[start..<end], prefix: prefix + [next])
            } else {
                result.append((String(String.UnicodeScalarView(prefix)), titles[start..<end]))
            }
            start = end
        }
        return result
    }

    /// The order of the index: the folded title's UTF-8 bytes, then the feedid.
    static func precedes(_ a: CatalogTitle, _ b: CatalogTitle) -> Bool {
        let (left, right) = (Array(a.key.utf8), Array(b.key.utf8))
        return left == right ? a.feedID < b.feedID : left.lexicographicallyPrecedes(right)
    }
}
