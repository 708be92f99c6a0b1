import FeedModel

/// The one picture shown beside an entry, and the feed's own picture.
///
/// Entry (`items.image_url`): `media:thumbnail` and image `media:content` in document order
/// (JSON Feed: `image`, then `banner_image`), then `itunes:image`, then an enclosure whose
/// type is an image. The first one that resolves to http(s) wins. The first `<img>` of the
/// entry's HTML is not a fallback: the summary already shows it, and it is as often a
/// tracking pixel, an avatar or a share button as the entry's picture.
///
/// Feed (`about.image_url`): RSS channel `image/url`, then `itunes:image`, then Atom `icon`,
/// then `logo` (JSON Feed: `icon`, then `favicon`).
enum PictureRule {
    static func image(_ entry: ParsedEntry, documentBase: String?) -> String? {
        for candidate in entry.thumbnails {
            if let url = WebLink.resolve(candidate, fallbackBases: entry.baseChain, documentBase: documentBase) { return url }
        }
        if let itunes = entry.itunesImage, let url = WebLink.resolve(itunes, fallbackBases: entry.baseChain, documentBase: documentBase) {
            return url
        }
        for enclosure in entry.enclosures where enclosure.link.type?.lowercased().hasPrefix("image/") == true {
            if let url = WebLink.resolve(enclosure.link, fallbackBases: entry.baseChain, documentBase: documentBase) { return url }
        }
        return nil
    }

    static let feedPicturePrecedence = ["image", "itunes:image", "icon", "logo", "favicon"]

    static func picture(_ feed: ParsedFeed, documentBase: String?) -> String? {
        for source in feedPicturePrecedence {
            for candidate in feed.pictures where candidate.rel == source {
                if let url = WebLink.resolve(candidate, fallbackBases: feed.baseChain, documentBase: documentBase) { return url }
            }
        }
        return nil
    }
}
