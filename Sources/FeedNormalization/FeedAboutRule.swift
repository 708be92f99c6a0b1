import FeedBasics
import FeedModel

/// What a feed says about itself (the catalog's `about` side): its description as plain text
/// (RSS/RDF channel `description`, Atom `subtitle`/`tagline` by their `type`, JSON Feed
/// `description`), its picture (``PictureRule``), its language as written with white space
/// collapsed (`en-us`).
enum FeedAboutRule {
    static func about(_ feed: ParsedFeed, documentBase: String?) -> FeedDescription {
        let description = feed.description.map { PlainText.from($0.withoutForbiddenCharacters(), typed: feed.format == .atom) }
        return FeedDescription(
            description: description.flatMap { $0.isEmpty ? nil : $0 },
            imageURL: PictureRule.picture(feed, documentBase: documentBase),
            language: WebLink.shortText(feed.language))
    }
}
