import FeedBasics
import FeedModel
import FeedNormalization

/// `atom.xml`: a valid Atom 1.0 feed of the newest entries across all feeds, each with a
/// `<source>` naming the feed it came from, as Planet aggregators publish.
enum AtomWriter {
    static func document(_ entries: [AggregateEntry], title: String, siteURL: String?) -> String {
        let updated = entries.map { $0.updated ?? $0.published }.max() ?? 0
        let feedID = siteURL.map { $0 + "atom.xml" } ?? "urn:feedmill:aggregate"
        var lines = [
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">",
            "  <title>\(Markup.escape(title))</title>",
            "  <id>\(Markup.escape(feedID))</id>",
            "  <updated>\(CivilDate.rfc3339(updated))</updated>",
            "  <author><name>\(Markup.escape(title))</name></author>",
            "  <generator uri=\"https://github.com/feedmill/feedmill\">Feedmill</generator>",
        ]
        if let siteURL = siteURL.flatMap(WebLink.checked) {
            lines.append("  <link rel=\"self\" type=\"application/atom+xml\" href=\"\(Markup.escape(siteURL))atom.xml\"/>")
            lines.append("  <link rel=\"alternate\" type=\"text/html\" href=\"\(Markup.escape(siteURL))\"/>")
        }
        for entry in entries {
            lines.append("  <entry>")
            lines.append("    <id>\(Markup.escape(atomID(entry)))</id>")
            lines.append("    <title type=\"text\">\(Markup.escape(entry.title.isEmpty ? "(untitled)" : entry.title))</title>")
            if let permalink = entry.permalink.flatMap(WebLink.checked) {
                lines.append("    <link rel=\"alternate\" type=\"text/html\" href=\"\(Markup.escape(permalink))\"/>")
            }
            if !entry.undated { lines.append("    <published>\(CivilDate.rfc3339(entry.published))</published>") }
            lines.append("    <updated>\(CivilDate.rfc3339(entry.updated ?? entry.published))</updated>")
            if let author = entry.author { lines.append("    <author><name>\(Markup.escape(author))</name></author>") }
            lines.append("    <content type=\"html\">\(Markup.escape(entry.summary))</content>")
            lines.append("    <source>")
            let feedURL = WebLink.checked(entry.feedURL)
            lines.append("      <id>\(Markup.escape(feedURL ?? "urn:feedmill:feed:\(entry.feedID)"))</id>")
            lines.append("      <title>\(Markup.escape(entry.feedTitle))</title>")
            if let site = entry.siteLink.flatMap(WebLink.checked) {
                lines.append("      <link rel=\"alternate\" type=\"text/html\" href=\"\(Markup.escape(site))\"/>")
            }
            if let feedURL { lines.append("      <link rel=\"self\" href=\"\(Markup.escape(feedURL))\"/>") }
            lines.append("    </source>")
            lines.append("  </entry>")
        }
        lines.append("</feed>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Atom ids must be IRIs: an entry id that already is one (it has a scheme) is kept;
    /// anything else gets a stable URN from the feed id and the entry id.
    static func atomID(_ entry: AggregateEntry) -> String {
        if let colon = entry.id.firstIndex(of: ":"), colon != entry.id.startIndex,
            entry.id[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            !entry.id.contains(where: \.isWhitespace)
        {
            return entry.id
        }
        return "urn:feedmill:feed:\(entry.feedID):entry:" + String(SHA256.hexDigest(entry.id).prefix(32))
    }
}
