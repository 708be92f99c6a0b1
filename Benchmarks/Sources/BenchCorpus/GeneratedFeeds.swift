/// Large feeds written by a seeded generator, so every run and every machine parses the same
/// bytes: what makes the malloc counts of the benchmarks comparable with stored thresholds.
/// The shapes follow the cases that cost the most: a busy news feed (many items with
/// `content:encoded`), a full-text archive (few entries of very long escaped HTML) and a JSON
/// Feed of the same size as the RSS one.
public enum GeneratedFeeds {
    /// RSS 2.0 with `count` items of about 6 KB each (`count` 300 gives about 2 MB).
    public static func newsRSS(items count: Int) -> [UInt8] {
        var random = SplitMix64(seed: 42)
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">"#
            + "<channel><title>Ordinary</title><link>https://ordinary.example/</link>\n"
        for n in 0..<count {
            let body = (0..<8).map { _ in random.paragraph(words: 40..<90) }.joined()
            out += "<item><title>Item \(n) \(random.word())</title><link>https://ordinary.example/\(n)</link>"
                + #"<guid isPermaLink="false">ord-\#(n)</guid><pubDate>Tue, 21 Apr 2009 23:32:00 +0000</pubDate>"#
                + "<dc:creator>Writer \(n % 7)</dc:creator><description>\(escaped(String(body.prefix(200))))</description>"
                + "<content:encoded><![CDATA[\(body)]]></content:encoded></item>\n"
        }
        return Array((out + "</channel></rss>\n").utf8)
    }

    /// Atom 1.0 with `count` entries of about 150 KB of escaped HTML each.
    public static func fullTextAtom(entries count: Int) -> [UInt8] {
        var random = SplitMix64(seed: 43)
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<feed xmlns="http://www.w3.org/2005/Atom">"#
            + #"<title>Full text</title><id>urn:fulltext</id><link href="https://fulltext.example/"/>"# + "\n"
        for n in 0..<count {
            let body = (0..<220).map { _ in random.paragraph(words: 60..<120) }.joined()
            out += "<entry><id>urn:fulltext:\(n)</id><title>Essay \(n)</title>"
                + #"<link rel="alternate" type="text/html" href="/essays/\#(n).html"/>"#
                + "<updated>2024-11-0\(n % 9 + 1)T10:00:00Z</updated>"
                + #"<content type="html">\#(escaped(body))</content></entry>"# + "\n"
        }
        return Array((out + "</feed>\n").utf8)
    }

    /// JSON Feed 1.1 with `count` items of about 6 KB of HTML each.
    public static func jsonFeed(items count: Int) -> [UInt8] {
        var random = SplitMix64(seed: 44)
        var items: [String] = []
        for n in 0..<count {
            let body = (0..<8).map { _ in random.paragraph(words: 40..<90) }.joined()
            items.append(
                #"{"id": "json-\#(n)", "url": "https://json.example/\#(n)", "title": "Item \#(n) \#(random.word())", "#
                    + #""date_published": "2024-11-0\#(n % 9 + 1)T10:00:00Z", "authors": [{"name": "Writer \#(n % 7)"}], "#
                    + #""content_html": "\#(jsonEscaped(body))"}"#)
        }
        let head = #"{"version": "https://jsonfeed.org/version/1.1", "title": "JSON", "home_page_url": "https://json.example/", "items": ["#
        return Array((head + items.joined(separator: ",\n") + "]}\n").utf8)
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}

/// A small seeded generator (SplitMix64): the same sequence on every platform and run.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    private static let words = ("feed parser latency sqlite offline reader network cache entry atom channel item "
        + "summary content permalink publish batch cron worker thread queue stream buffer").split(separator: " ").map(String.init)

    mutating func word() -> String { Self.words[below(Self.words.count)] }

    mutating func paragraph(words range: Range<Int>) -> String {
        let count = range.lowerBound + below(range.count)
        let text = (0..<count).map { _ in word() }.joined(separator: " ")
        return "<p>\(text.prefix(1).uppercased() + text.dropFirst()) <a href=\"/posts/\(below(1_000_000))\">\(word())</a> &amp; more.</p>\n"
    }
}
