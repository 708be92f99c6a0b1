import Foundation

/// The title index's rules, shared by the publisher and (as written in the client contract)
/// every client that searches it.
///
/// The titles, folded and sorted, are cut into runs (a file each) and the runs into groups
/// (a file each, named by the index) where the titles themselves say: a run ends after a title
/// whose mark (a hash of its key and feedid) is a multiple of ``runMean``, or when it holds
/// ``runLimit`` titles; a group ends after a run whose last title's mark, shifted past the
/// bits the runs use, is a multiple of ``groupMean``, or at ``groupLimit`` runs. So a title
/// added, removed or renamed changes its run and its group and leaves the others' bytes and
/// names; and titles that share any prefix, however many, are spread over runs of at most
/// ``runLimit`` (format 1 cut by prefix, never past 12 characters: a million synthetic titles
/// sharing "synthetic fe" made one chunk of 80 MB).
public enum CatalogTitleIndex {
    /// A run ends, on average, after this many titles.
    static let runMean: UInt64 = 1_024
    /// Most titles a run holds.
    public static let runLimit = 2_048
    /// A group ends, on average, after this many runs.
    static let groupMean: UInt64 = 32
    /// Most runs a group names.
    public static let groupLimit = 64

    /// What a title is compared as: case, diacritics and width folded, runs of white space as
    /// one space, none at either end (`"  Le Monde — À la une "` → `"le monde — a la une"`).
    public static func fold(_ title: String) -> String {
        let folded = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The order of the index: the folded title's UTF-8 bytes, then the feedid.
    static func precedes(_ a: CatalogTitle, _ b: CatalogTitle) -> Bool {
        let (left, right) = (Array(a.key.utf8), Array(b.key.utf8))
        return left == right ? a.feedID < b.feedID : left.lexicographicallyPrecedes(right)
    }

    /// The runs of `titles` (sorted by ``precedes(_:_:)``), and the groups of those runs: a
    /// pure function of the titles.
    static func cut(_ titles: [CatalogTitle]) -> (runs: [Range<Int>], groups: [Range<Int>]) {
        let marks = titles.map(mark)
        let runs = consecutive(titles.count, limit: runLimit) { marks[$0] % runMean == 0 }
        let groups = consecutive(runs.count, limit: groupLimit) { (marks[runs[$0].upperBound - 1] / runMean) % groupMean == 0 }
        return (runs, groups)
    }

    /// `0..<count` in consecutive ranges: one ends after an index `endsAfter` says, or at `limit`.
    static func consecutive(_ count: Int, limit: Int, endsAfter: (Int) -> Bool) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in 0..<count where endsAfter(index) || index + 1 - start == limit || index == count - 1 {
            ranges.append(start..<index + 1)
            start = index + 1
        }
        return ranges
    }

    /// A title's mark: FNV-1a over its key's UTF-8, a zero byte and its feedid's decimal digits,
    /// then MurmurHash3's finaliser (FNV's low bits alone follow similar titles too closely).
    static func mark(_ title: CatalogTitle) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for byte in title.key.utf8 { add(byte) }
        add(0)
        for byte in String(title.feedID).utf8 { add(byte) }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        return hash ^ (hash >> 33)
    }
}
