/// "Did you mean": the known name nearest to a mistyped one, when it is near enough to be
/// what was meant (`lst` → `list`, `exprot` → `export`), else nothing, so that a word
/// unlike every name gets no guess.
public enum NearestName {
    /// The name of `known` nearest to `typed`: a name it starts, or one within `maximum` edits
    /// (insertions, deletions, substitutions), the nearest first, ties in `known`'s order.
    public static func suggestion(for typed: String, among known: [String], maximum: Int = 2) -> String? {
        let typed = typed.lowercased()
        if typed.count >= 2, let started = known.first(where: { $0.hasPrefix(typed) }) { return started }
        let scored = known.map { (name: $0, distance: distance($0, typed)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= maximum, best.distance < best.name.count else {
            return nil
        }
        return best.name
    }

    /// Levenshtein distance.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
