import FeedModel

/// An entry's categories as clients store them (`items.categories_json`): the term as plain
/// text (Atom's `label` when it has no `term`), the label only when it says something the term
/// does not, the scheme (RSS `domain`, Atom `scheme`) as written. One category per term and
/// scheme: the first, with a later one's label where it had none.
enum CategoryRule {
    static func categories(_ parsed: [ParsedCategory]) -> [EntryCategory] {
        var result: [EntryCategory] = []
        guard !parsed.isEmpty else { return result }
        result.reserveCapacity(parsed.count)
        for category in parsed {
            let label = WebLink.shortText(category.label)
            guard let term = WebLink.shortText(category.term) ?? label else { continue }
            let found = EntryCategory(term: term, label: label == term ? nil : label, scheme: WebLink.shortText(category.scheme))
            if let same = result.firstIndex(where: { $0.term == found.term && $0.scheme == found.scheme }) {
                result[same].label = result[same].label ?? found.label
            } else {
                result.append(found)
            }
        }
        return result
    }
}
