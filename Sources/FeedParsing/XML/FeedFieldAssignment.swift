import FeedDates
import FeedModel

/// Puts a finished text value where it belongs. The first value of a field wins, except
/// for dates, where the better-ranked source wins (`pubDate`/`published` over `dc:date` and
/// Atom 0.3's `issued` over `dcterms:issued`/`created`). A date element that appears twice
/// (two `updated`, two `pubDate`): the last one that reads as a date wins, as feedparser
/// decides, and one that does not read never replaces one that did.
extension FeedElementHandler {
    func apply(_ collected: TextCollector) {
        guard !collected.isBlank else { return }
        switch collected.field {
        case .feedTitle:
            if feed?.title == nil, let bytes = collected.decodedBytes { feed?.title = FeedText(utf8: bytes, kind: collected.kind) }
            return
        case .feedDescription:
            if feed?.description == nil, let bytes = collected.decodedBytes {
                feed?.description = FeedText(utf8: bytes, kind: collected.kind)
            }
            return
        case .title, .secondaryTitle, .mediaTitle, .summary, .content:
            applyRichText(collected)
            return
        default:
            break
        }
        let value = collected.trimmedText
        switch collected.field {
        case .feedLink:
            if feed?.siteLink == nil, !value.isEmpty { feed?.siteLink = FeedLink(href: value, baseChain: baseChain) }
        case .ttl:
            if let minutes = Int(value), minutes > 0 { feed?.hints.ttlMinutes = minutes }
        case .skipHour:
            if let hour = Int(value), (0...24).contains(hour) { feed?.hints.skipHours.append(hour % 24) }
        case .skipDay:
            if !value.isEmpty { feed?.hints.skipDays.append(value) }
        case .updatePeriod:
            if !value.isEmpty { feed?.hints.updatePeriod = value.lowercased() }
        case .updateFrequency:
            if let frequency = Int(value), frequency > 0 { feed?.hints.updateFrequency = frequency }
        case .authorName:
            if !value.isEmpty { pendingAuthorName = value }
        case .authorEmail:
            if !value.isEmpty { pendingAuthorEmail = value }
        case .linkText(let rel, let type, let length):
            guard !value.isEmpty else { return }
            let link = FeedLink(href: value, rel: rel, type: type, baseChain: baseChain)
            if isInEntry { entry?.mutate { $0.links.append(link) } } else { feed?.links.append(link) }
            // `<link rel="enclosure">https://…/episode.mp3</link>`: the URL as text, as with `href`.
            if isInEntry, rel?.lowercased() == "enclosure" { appendEnclosure(url: value, type: type, length: length) }
        case .authorURI:
            if !value.isEmpty { pendingAuthorURI = FeedLink(href: value, baseChain: baseChain) }
        case .feedLanguage:
            if feed?.language == nil, !value.isEmpty { feed?.language = value }
        case .feedPicture(let source):
            if !value.isEmpty { feed?.pictures.append(FeedLink(href: value, rel: source, baseChain: baseChain)) }
        case .podcastAuthor where !isInEntry:
            if !value.isEmpty { feed?.podcastAuthors.append(.written(value)) }
        default:
            applyToEntry(collected, value: value)
        }
    }

    /// Titles and bodies keep their white space: normalisation decides what it means.
    private func applyRichText(_ collected: TextCollector) {
        guard let bytes = collected.decodedBytes else { return }
        let text = FeedText(utf8: bytes, kind: collected.kind)
        switch collected.field {
        case .title, .secondaryTitle:
            entry?.mutate { if $0.title == nil { $0.title = text } }
        case .mediaTitle:
            entry?.mutate { if $0.mediaTitle == nil { $0.mediaTitle = text } }
        case .summary:
            entry?.mutate { if $0.summary == nil { $0.summary = text } }
        case .content:
            entry?.mutate { if $0.content == nil { $0.content = text } }
        default:
            break
        }
    }

    private func applyToEntry(_ collected: TextCollector, value: String) {
        guard isInEntry else { return }
        let baseChain = baseChain
        switch collected.field {
        case .link:
            entry?.mutate { if $0.itemLink == nil { $0.itemLink = FeedLink(href: value, baseChain: baseChain) } }
        case .originalLink:
            entry?.mutate { if $0.originalLink == nil { $0.originalLink = FeedLink(href: value, baseChain: baseChain) } }
        case .nativeID:
            entry?.mutate { if $0.nativeID == nil { $0.nativeID = value } }
        case .namespacedID(let prefix):
            if !value.isEmpty { entry?.mutate { if $0.namespacedID == nil { $0.namespacedID = prefix + value } } }
        case .published(let rank):
            guard rank <= publishedRank else { return }
            let date = FeedDate.parse(value)
            if date != nil { publishedRank = rank }
            entry?.mutate { entry in
                if let date {
                    entry.published = date
                    entry.publishedText = value
                } else if entry.publishedText == nil {
                    entry.publishedText = value
                }
            }
        case .updated:
            let date = FeedDate.parse(value)
            entry?.mutate { entry in
                if date != nil || entry.updatedText == nil {
                    entry.updated = date
                    entry.updatedText = value
                }
            }
        case .author:
            entry?.mutate { $0.authors.append(.written(value)) }
        case .podcastAuthor:
            entry?.mutate { $0.podcastAuthors.append(.written(value)) }
        case .itunesDuration:
            entry?.mutate { if $0.itunesDuration == nil { $0.itunesDuration = value } }
        case .category(let scheme, let label):
            entry?.mutate { $0.categories.append(ParsedCategory(term: value, label: label, scheme: scheme)) }
        default:
            break
        }
    }
}

extension ParsedEntry {
    /// Changes the entry in place. Called through optional chaining on the handler's open
    /// entry (`entry?.mutate { … }`), it neither copies the entry nor force-unwraps it; reading
    /// `entry?.field` instead copied the whole entry on every element (the parse profile).
    mutating func mutate(_ body: (inout ParsedEntry) -> Void) {
        body(&self)
    }
}
