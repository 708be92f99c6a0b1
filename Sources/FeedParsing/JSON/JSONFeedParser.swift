import FeedBasics
import FeedDates
import FeedModel
import Foundation

/// Reads JSON Feed into the same ``ParsedFeed`` shape the XML formats produce.
enum JSONFeedParser {
    static func parse(utf8: [UInt8]) throws(FeedParseError) -> ParsedFeed {
        let document = try rethrowing(
            try decode(JSONFeedDocument.self, from: utf8),
            as: { error in FeedParseError.unreadable(line: 1, column: 1, reason: "invalid JSON: \(describe(error))") })
        guard document.version?.contains("jsonfeed.org/version/") == true else {
            throw FeedParseError.notAFeed(found: "a JSON document without a JSON Feed \"version\"")
        }
        var feed = ParsedFeed(format: .json)
        feed.version = document.version.flatMap(shortVersion)
        feed.title = document.title.map { FeedText($0, kind: .text) }
        feed.siteLink = document.homePageURL.map { FeedLink(href: $0) }
        if let feedURL = document.feedURL { feed.links.append(FeedLink(href: feedURL, rel: "self")) }
        // A WebSub hub is a `rel="hub"` link, as Atom and RSS give it; other kinds (rssCloud) are not followed.
        for hub in document.hubs where hub.type?.lowercased() == "websub" {
            if let url = hub.url { feed.links.append(FeedLink(href: url, rel: "hub")) }
        }
        feed.authors = document.authors.compactMap(person)
        feed.description = document.description.map { FeedText($0, kind: .text) }
        feed.pictures = [("icon", document.icon), ("favicon", document.favicon)].compactMap { source, url in
            url.map { FeedLink(href: $0, rel: source) }
        }
        feed.language = document.language
        feed.entries = document.items.map(entry)
        return feed
    }

    /// The one way JSON Feed bytes are decoded, whole or an item at a time: strings repaired
    /// first (``JSONStringRepair``), so that one bad character does not cost its whole field.
    static func decode<Value: Decodable>(_ type: Value.Type, from utf8: [UInt8]) throws -> Value {
        try JSONDecoder().decode(type, from: Data(JSONStringRepair.repaired(utf8) ?? utf8))
    }

    /// `https://jsonfeed.org/version/1.1` → `1.1`; `…/version/1` → `1.0`.
    private static func shortVersion(_ url: String) -> String? {
        guard let range = url.range(of: "version/") else { return nil }
        let number = url[range.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        return number.contains(".") ? number : number + ".0"
    }

    static func entry(_ item: JSONFeedItem) -> ParsedEntry {
        var entry = ParsedEntry()
        entry.nativeID = item.id?.trimmed
        entry.guidIsPermaLink = false
        entry.itemLink = item.url.map { FeedLink(href: $0) }
        entry.originalLink = item.externalURL.map { FeedLink(href: $0) }
        entry.title = item.title.map { FeedText($0, kind: .text) }
        entry.summary = item.summary.map { FeedText($0, kind: .text) }
        if let html = item.contentHTML {
            entry.content = FeedText(html, kind: .html)
        } else if let text = item.contentText {
            entry.content = FeedText(text, kind: .text)
        }
        entry.publishedText = item.datePublished
        entry.published = item.datePublished.flatMap(FeedDate.parse)
        entry.updatedText = item.dateModified
        entry.updated = item.dateModified.flatMap(FeedDate.parse)
        entry.authors = item.authors.compactMap(person)
        entry.categories = item.tags.map { ParsedCategory(term: $0) }
        // Appended one by one: a literal list of both allocated for every item.
        if let image = item.image { entry.thumbnails.append(FeedLink(href: image)) }
        if let banner = item.bannerImage { entry.thumbnails.append(FeedLink(href: banner)) }
        entry.enclosures = item.attachments.compactMap { attachment in
            guard let url = attachment.url else { return nil }
            return ParsedEnclosure(
                link: FeedLink(href: url, type: attachment.mimeType), length: attachment.sizeInBytes,
                duration: attachment.durationInSeconds)
        }
        return entry
    }

    /// A JSON Feed author has a `name`, a `url` and an `avatar`, no address: one with no name
    /// has nothing a reader can show.
    private static func person(_ author: JSONFeedAuthor) -> ParsedPerson? {
        guard let name = author.name else { return nil }
        return ParsedPerson(name: name, uri: author.url.map { FeedLink(href: $0) })
    }

    static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
        }
        return "\(error)"
    }
}
