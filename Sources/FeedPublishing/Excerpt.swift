import FeedNormalization

/// The short plain-text excerpt under each entry on `index.html`, as Planet pages show: the
/// summary's text (tags dropped, entities decoded, white space collapsed), cut at a word
/// boundary. Plain text, escaped when written, so nothing in a summary becomes markup here.
enum Excerpt {
    static func of(summaryHTML: String, limit: Int = 280) -> String {
        let text = PlainText.fromHTML(summaryHTML, keepingUnknownTags: false)
        guard text.count > limit else { return text }
        let cut = text.prefix(limit)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return atWord.trimmingTrailingPunctuation() + "…"
    }
}

extension Substring {
    fileprivate func trimmingTrailingPunctuation() -> String {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, ",;:-–— ".contains(last) { end = index(before: end) }
        return String(self[..<end])
    }
}
