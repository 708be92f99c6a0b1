import CLibXML2
import FeedDates
import FeedModel

/// Microsoft's Channel Definition Format (1997), which some old sites still serve:
/// `<CHANNEL HREF=…><TITLE/><ITEM HREF=… LASTMOD=…><TITLE/><ABSTRACT/></ITEM></CHANNEL>`.
/// Read as an RSS-shaped feed: the item's `HREF` is its link, `LASTMOD` its update time,
/// `ABSTRACT` its summary (plain text), as feedparser maps them.
extension FeedElementHandler {
    func startCDFRoot(attributes: SAXAttributes, pushedBase: Bool) {
        // CDF's `BASE` attribute is its xml:base.
        let base = attributes.value("BASE")
        if let base { baseChain.append(base) }
        var parsed = ParsedFeed(format: .rss)
        parsed.version = "CDF"
        parsed.baseChain = baseChain
        if let href = attributes.value("HREF") { parsed.siteLink = FeedLink(href: href, baseChain: baseChain) }
        rootFormat = .rss
        isCDF = true
        feed = parsed
        push(.root, pushedBase || base != nil)
    }

    func startCDFElement(_ name: String, attributes: SAXAttributes, pushedBase: Bool) {
        switch (name, isInEntry) {
        case ("ITEM", _):
            while isInEntry, !stack.isEmpty { popFrame() }
            startEntry(attributes: attributes, pushedBase: pushedBase)
            let baseChain = baseChain
            if let href = attributes.value("HREF") { entry?.mutate { $0.itemLink = FeedLink(href: href, baseChain: baseChain) } }
            if let modified = attributes.value("LASTMOD") {
                let date = FeedDate.parse(modified)
                entry?.mutate { $0.updated = date; $0.updatedText = modified }
            }
        case ("TITLE", false):
            collect(.feedTitle, element: "TITLE", pushedBase: pushedBase)
        case ("TITLE", true):
            collect(.title, element: "TITLE", pushedBase: pushedBase)
        case ("ABSTRACT", true):
            collect(.summary, element: "ABSTRACT", pushedBase: pushedBase)
        default:
            push(.other, pushedBase)
        }
    }
}
