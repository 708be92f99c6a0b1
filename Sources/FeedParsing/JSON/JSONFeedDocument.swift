/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1), decoded leniently: a field of
/// the wrong type is treated as absent rather than failing the whole feed, and ids given
/// as numbers are read as their decimal text.
struct JSONFeedDocument: Decodable {
    var version: String?
    var title: String?
    var homePageURL: String?
    var feedURL: String?
    var description: String?
    var icon: String?
    var favicon: String?
    var language: String?
    var authors: [JSONFeedAuthor]
    var items: [JSONFeedItem]
    /// JSON Feed 1.1's real-time endpoints: `{"type": "WebSub", "url": …}` is a WebSub hub.
    var hubs: [JSONFeedHub]

    enum CodingKeys: String, CodingKey {
        case version, title, author, authors, items, description, icon, favicon, language, hubs
        case homePageURL = "home_page_url"
        case feedURL = "feed_url"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = container.lenientString(.version)
        title = container.lenientString(.title)
        homePageURL = container.lenientString(.homePageURL)
        feedURL = container.lenientString(.feedURL)
        description = container.lenientString(.description)
        icon = container.lenientString(.icon)
        favicon = container.lenientString(.favicon)
        language = container.lenientString(.language)
        authors = container.authors(single: .author, list: .authors)
        hubs = (try? container.decodeIfPresent([Lenient<JSONFeedHub>].self, forKey: .hubs))?.compactMap(\.value) ?? []
        items = (try? container.decodeIfPresent([Lenient<JSONFeedItem>].self, forKey: .items))?
            .compactMap(\.value) ?? []
    }
}

struct JSONFeedHub: Decodable {
    var type: String?
    var url: String?

    enum CodingKeys: String, CodingKey { case type, url }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = container.lenientString(.type)
        url = container.lenientString(.url)
    }
}

struct JSONFeedAuthor: Decodable {
    var name: String?
    var url: String?

    enum CodingKeys: String, CodingKey { case name, url }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = container.lenientString(.name)
        url = container.lenientString(.url)
    }
}

struct JSONFeedAttachment: Decodable {
    var url: String?
    var mimeType: String?
    var sizeInBytes: Int64?
    var durationInSeconds: Int64?

    enum CodingKeys: String, CodingKey {
        case url
        case mimeType = "mime_type"
        case sizeInBytes = "size_in_bytes"
        case durationInSeconds = "duration_in_seconds"
    }

    /// Sizes and durations written as `12.5` or `"300"` are read as whole numbers; anything
    /// else is unknown, never a reason to lose the attachment.
    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = container.lenientString(.url)
        mimeType = container.lenientString(.mimeType)
        sizeInBytes = container.lenientWholeNumber(.sizeInBytes)
        durationInSeconds = container.lenientWholeNumber(.durationInSeconds)
    }
}

struct JSONFeedItem: Decodable {
    var id: String?
    var url: String?
    var externalURL: String?
    var title: String?
    var contentHTML: String?
    var contentText: String?
    var summary: String?
    var image: String?
    var bannerImage: String?
    var datePublished: String?
    var dateModified: String?
    var authors: [JSONFeedAuthor]
    var tags: [String]
    var attachments: [JSONFeedAttachment]

    enum CodingKeys: String, CodingKey {
        case id, url, title, summary, image, author, authors, tags, attachments
        case externalURL = "external_url"
        case bannerImage = "banner_image"
        case contentHTML = "content_html"
        case contentText = "content_text"
        case datePublished = "date_published"
        case dateModified = "date_modified"
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.lenientString(.id)
        url = container.lenientString(.url)
        externalURL = container.lenientString(.externalURL)
        title = container.lenientString(.title)
        contentHTML = container.lenientString(.contentHTML)
        contentText = container.lenientString(.contentText)
        summary = container.lenientString(.summary)
        image = container.lenientString(.image)
        bannerImage = container.lenientString(.bannerImage)
        datePublished = container.lenientString(.datePublished)
        dateModified = container.lenientString(.dateModified)
        authors = container.authors(single: .author, list: .authors)
        tags = (try? container.decodeIfPresent([Lenient<String>].self, forKey: .tags))?.compactMap(\.value) ?? []
        attachments = (try? container.decodeIfPresent([Lenient<JSONFeedAttachment>].self, forKey: .attachments))?
            .compactMap(\.value) ?? []
    }
}

/// An array element that decodes to `nil` instead of failing its array.
struct Lenient<Value: Decodable>: Decodable {
    var value: Value?

    init(from decoder: Decoder) throws {
        value = try? Value(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// A string, or a number's decimal text; `nil` for anything else. An absent member is
    /// looked up once, not once per type tried (most optional members are absent).
    func lenientString(_ key: Key) -> String? {
        guard contains(key) else { return nil }
        if let string = try? decodeIfPresent(String.self, forKey: key) { return string }
        if let integer = try? decodeIfPresent(Int64.self, forKey: key) { return String(integer) }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return String(number) }
        return nil
    }

    /// A whole number, or a number with a fraction (cut), or one written as a string; `nil`
    /// for anything else or a negative one.
    func lenientWholeNumber(_ key: Key) -> Int64? {
        guard contains(key) else { return nil }
        if let integer = try? decodeIfPresent(Int64.self, forKey: key) { return integer >= 0 ? integer : nil }
        let number = (try? decodeIfPresent(Double.self, forKey: key)) ?? lenientString(key).flatMap { Double($0.trimmed) }
        guard let number, number.isFinite, number >= 0, number < 9e18 else { return nil }
        return Int64(number)
    }

    /// JSON Feed 1.1 `authors`, falling back to 1.0's single `author`.
    func authors(single: Key, list: Key) -> [JSONFeedAuthor] {
        if let authors = try? decodeIfPresent([Lenient<JSONFeedAuthor>].self, forKey: list) {
            return authors.compactMap(\.value)
        }
        if let author = try? decodeIfPresent(JSONFeedAuthor.self, forKey: single) { return [author] }
        return []
    }
}
