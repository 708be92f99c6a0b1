import FeedModel
import FeedNormalization
import FeedParsing
import Foundation
import Testing

@testable import FeedNormalization

/// What a reader shows beside an entry's text: enclosures, one image, categories, credited
/// people, and the feed's description, picture and language (issue 40), one fixture per format.
@Suite("Reader fields: enclosures, image, categories, authors, the feed's about")
struct ReaderFieldsTests {
    @Test func aPodcastFeedWithItunesElements() throws {
        let feed = try normalizedFixture("rss20-podcast-itunes.xml")
        #expect(feed.about == FeedDescription(
            description: "Weekly talk about feeds & readers.", imageURL: "https://show.example/channel.png", language: "en-us"))
        #expect(feed.entries.count == 5)
        let onlyItunes = feed.entries[0]
        #expect(onlyItunes.authors == [Person(name: "Guest Speaker")])
        #expect(onlyItunes.author == "Guest Speaker")
        #expect(onlyItunes.enclosures == [Enclosure(url: "https://cdn.show.example/ep1.mp3", type: "audio/mpeg", duration: 3723)],
                "length 0 is unknown, the type lowercased, 1:02:03 is 3,723 seconds")
        #expect(onlyItunes.image == "https://show.example/ep1.jpg")
        #expect(onlyItunes.categories == [
            EntryCategory(term: "Interviews"), EntryCategory(term: "RSS", scheme: "https://show.example/topics"),
        ], "every RSS category with its domain, repeats dropped; itunes:keywords and itunes:category not read")

        let withAuthor = feed.entries[1]
        #expect(withAuthor.authors == [Person(name: "Host Name", email: "host@show.example")], "itunes:author is only the fallback")
        #expect(withAuthor.author == "Host Name")
        #expect(withAuthor.enclosures == [
            Enclosure(url: "https://cdn.show.example/ep2.mp3", type: "audio/mpeg", length: 12345, duration: 2731),
        ], "the same URL twice is one enclosure; media:content's own duration beats itunes:duration; javascript: dropped")
        #expect(withAuthor.image == nil)

        let showCredits = feed.entries[2]
        #expect(showCredits.author == "The Show Team", "nothing credits the episode: the channel's itunes:author does")
        #expect(showCredits.enclosures == [Enclosure(url: "https://files.show.example/season2/ep3.mp4", type: "video/mp4", duration: 1800)],
                "resolved against the item's xml:base; an unreadable length is unknown")

        let childElements = feed.entries[3]
        #expect(childElements.authors == [Person(name: "Jane Doe", email: "jane@show.example")],
                "an RSS author with child elements is read as Atom's, its texts not run together")
        #expect(childElements.author == "Jane Doe")
        #expect(childElements.enclosures == [Enclosure(url: "https://cdn.show.example/ep4.m4a", length: 42)],
                "a duration of 0:00 is unknown")

        let twoWays = feed.entries[4]
        #expect(twoWays.authors == [Person(name: "Pat Roe", email: "pat@show.example"), Person(email: "sam@show.example")])
        #expect(twoWays.author == "Pat Roe, sam@show.example")
    }

    @Test func mediaRSSGroupsThumbnailsAndSubjects() throws {
        let feed = try normalizedFixture("mrss-media-group.xml")
        #expect(feed.about == FeedDescription(description: "Short videos", imageURL: nil, language: "fr"))
        let group = feed.entries[0]
        #expect(group.enclosures == [
            Enclosure(url: "https://media.clips.example/1-720.mp4", type: "video/mp4", length: 7_340_032, duration: 95),
            Enclosure(url: "https://media.clips.example/1-360.mp4", type: "video/mp4", duration: 95),
        ])
        #expect(group.image == "https://media.clips.example/1.jpg")
        #expect(group.categories == [EntryCategory(term: "Travel"), EntryCategory(term: "Mountains")])
        #expect(group.title == "Renditions in a group")
        let photo = feed.entries[1]
        #expect(photo.image == "https://media.clips.example/2.jpg")
        #expect(photo.enclosures == [Enclosure(url: "https://media.clips.example/2.jpg")])
        let relative = feed.entries[2]
        #expect(relative.image == "https://media.clips.example/3/thumb.jpg")
        #expect(relative.enclosures == [Enclosure(url: "https://media.clips.example/3/clip.webm", type: "video/webm")])
    }

    @Test func atomCategoriesAndSeveralAuthors() throws {
        let feed = try normalizedFixture("atom10-categories-authors.xml")
        #expect(feed.about == FeedDescription(
            description: "Notes from the team", imageURL: "https://blog.example/favicon.png", language: "de-DE"))
        let together = feed.entries[0]
        #expect(together.authors == [
            Person(name: "Ada", email: "ada@blog.example", uri: "https://blog.example/people/ada"), Person(name: "Grace"),
        ], "uri resolved against the entry's xml:base; a javascript: uri dropped; the repeated Ada is one; the contributor is no author")
        #expect(together.author == "Ada, Grace")
        #expect(together.categories == [
            EntryCategory(term: "swift", label: "Swift", scheme: "https://blog.example/tags"),
            EntryCategory(term: "swift", scheme: "https://other.example/topics"),
            EntryCategory(term: "linux"),
            EntryCategory(term: "Only a label"),
            EntryCategory(term: "written as text"),
        ])
        #expect(together.enclosures == [Enclosure(url: "https://blog.example/1.pdf", type: "application/pdf", length: 2048)])
        #expect(feed.entries[1].authors == [Person(name: "Editorial Desk")], "an Atom entry without authors inherits the feed's")
    }

    @Test func jsonFeedAttachmentsAuthorsTagsAndImages() throws {
        let feed = try normalizedFixture("jsonfeed11-attachments.json", feedURL: "https://pod.example/feed.json")
        #expect(feed.about == FeedDescription(
            description: "Episodes & notes", imageURL: "https://pod.example/icon-512.png", language: "en-GB"))
        let first = feed.entries[0]
        #expect(first.enclosures == [
            Enclosure(url: "https://pod.example/1.mp3", type: "audio/mpeg", length: 89_970_236, duration: 3600),
            Enclosure(url: "https://pod.example/1.m4a", type: "audio/x-m4a"),
        ], "a repeated URL merged, a fractional duration cut, size 0 unknown, a data: URL dropped")
        #expect(first.authors == [Person(name: "Alex", uri: "https://alex.example/"), Person(name: "Sam")],
                "an ftp url is left out; an author without a name has nothing to show")
        #expect(first.categories == [EntryCategory(term: "news"), EntryCategory(term: "audio")], "a tag that is not a string is skipped")
        #expect(first.image == "https://pod.example/1.jpg", "image before banner_image")
        let second = feed.entries[1]
        #expect(second.image == "https://pod.example/2-banner.jpg")
        #expect(second.author == "Old Style", "JSON Feed 1.0's single author")
    }

    @Test(arguments: ["rss20-podcast-itunes.xml", "mrss-media-group.xml", "atom10-categories-authors.xml", "jsonfeed11-attachments.json"])
    func streamingGivesTheSameReaderFields(name: String) throws {
        let whole = try normalizedFixture(name)
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw FixtureMissing(name: name)
        }
        let bytes = [UInt8](try Data(contentsOf: url))
        var normalizer = EntryNormalizer(feedURL: "https://feed.example/dir/feed.xml", now: readingTime)
        var entries: [Entry] = []
        let parser = FeedStreamParser(charset: nil) { entry, feed in
            if let normalized = normalizer.normalize(entry, in: feed) { entries.append(normalized) }
        }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let end = min(offset + 7, buffer.count)
                parser.append(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                offset = end
            }
        }
        let header = FeedNormalizer.header(try parser.finish(), feedURL: "https://feed.example/dir/feed.xml")
        #expect(entries == whole.entries)
        #expect(header.about == whole.about)
    }

    @Test("one string into name and address", arguments: [
        ("joe@example.com (Joe Bloggs)", "Joe Bloggs", "joe@example.com"),
        ("Joe Bloggs (joe@example.com)", "Joe Bloggs", "joe@example.com"),
        ("Joe Bloggs <joe@example.com>", "Joe Bloggs", "joe@example.com"),
        ("<mailto:joe@example.com>", nil, "joe@example.com"),
        ("joe@example.com", nil, "joe@example.com"),
        ("Joe Bloggs", "Joe Bloggs", nil),
        ("Joe (the editor)", "Joe (the editor)", nil),
        ("AT&T <press>", "AT&T <press>", nil),
        ("@handle", "@handle", nil),
    ] as [(String, String?, String?)])
    func oneStringSplits(text: String, name: String?, email: String?) {
        let split = PersonRule.split(text)
        #expect(split.name == name)
        #expect(split.email.flatMap(PersonRule.address) == email)
    }

    @Test("itunes:duration", arguments: [
        ("1:02:03", 3723), ("45:30", 2730), ("1800", 1800), (" 90 ", 90), ("01:00:00.500", 3600), ("75:00", 4500),
        ("0", nil), ("0:00", nil), ("", nil), ("1:2:3:4", nil), ("ten minutes", nil), ("-5", nil), ("1::2", nil), ("12.x", nil),
    ] as [(String, Int64?)])
    func durations(written: String, seconds: Int64?) {
        #expect(EnclosureRule.seconds(written) == seconds)
    }

    @Test func anItemInsideAChannelDescriptionLeftOpenIsStillAnItem() throws {
        let feed = try normalized("""
            <rss version="2.0"><channel><title>T</title><description><p>About <b>us</description>
            <language>en</language><item><guid>1</guid><title>One</title></item><item><guid>2</guid></item></channel></rss>
            """)
        #expect(feed.entries.map(\.id) == ["1", "2"])
        #expect(feed.about.description == "About us")
    }

    @Test func feedPicturesFollowTheirPrecedence() throws {
        let itunes = try normalized("""
            <rss xmlns:itunes="http://www.itunes.com/DTDs/PodCast-1.0.dtd"><channel><itunes:image href="/art.jpg"/>
            <image><url>javascript:alert(1)</url></image></channel></rss>
            """)
        #expect(itunes.about.imageURL == "https://feed.example/art.jpg", "an unsafe image/url is passed over")
        let logo = try normalized("<feed xmlns='http://www.w3.org/2005/Atom'><logo>https://a.example/logo.png</logo></feed>")
        #expect(logo.about.imageURL == "https://a.example/logo.png")
        let none = try normalized("<rss><channel><title>T</title><description>  </description></channel></rss>")
        #expect(none.about == FeedDescription())
    }

    @Test func theItunesNamespaceIsRecognisedInAnyCase() throws {
        for uri in ["http://www.itunes.com/DTDs/Podcast-1.0.dtd", "HTTP://WWW.ITUNES.COM/DTDS/PODCAST-1.0.DTD"] {
            let feed = try normalized("""
                <rss xmlns:itunes="\(uri)"><channel><item><guid>1</guid><itunes:author>Mark Pilgrim</itunes:author></item></channel></rss>
                """)
            #expect(feed.entries.first?.author == "Mark Pilgrim", "\(uri)")
        }
    }

    @Test func mediaCategoriesDcAuthorAndACategoryWithChildren() throws {
        let feed = try normalized("""
            <rss xmlns:media="http://search.yahoo.com/mrss" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><item><guid>1</guid>
            <dc:author>Example editor</dc:author>
            <media:category scheme="urn:s" label="Lab">cat1</media:category>
            <category>Example category <image><url>http://x.example/a.jpg</url><title>T</title></image></category>
            </item></channel></rss>
            """)
        let entry = try #require(feed.entries.first)
        #expect(entry.author == "Example editor")
        #expect(entry.categories == [EntryCategory(term: "cat1", label: "Lab", scheme: "urn:s"), EntryCategory(term: "Example category")])
    }

    @Test func forbiddenCharactersNeverReachTheFields() throws {
        let feed = try normalized("""
            <rss><channel><item><guid>1</guid><author>A&#x1;nn</author><category domain="s&#xFFFE;">t&#x8;ag</category>
            <enclosure url="https://e.com/a&#x1;.mp3" type="audio/&#x1;mpeg"/></item></channel></rss>
            """)
        let entry = try #require(feed.entries.first)
        #expect(entry.author == "Ann")
        #expect(entry.categories == [EntryCategory(term: "tag", scheme: "s")])
        #expect(entry.enclosures == [Enclosure(url: "https://e.com/a.mp3", type: "audio/mpeg")])
    }
}
