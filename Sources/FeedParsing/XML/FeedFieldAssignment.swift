import FeedModel

/// Puts a finished text value where it belongs. The first value of a field wins, except
/// for dates, where the better-ranked source wins (`pubDate` over `dc:date` over `dcterms:issued`).
extension FeedElementHandler {
    func apply(_ collected: TextCollector) {
        let raw = collected.text
        let value = raw.trimmed
        switch collected.field {
        case .feedTitle:
            if feed?.title == nil, !value.isEmpty { feed?.title = FeedText(raw, kind: collected.kind) }
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
        default:
            applyToEntry(collected, raw: raw, value: value)
        }
    }

    private func applyToEntry(_ collected: TextCollector, raw: String, value: String) {
        guard entry != nil, !value.isEmpty else { return }
        switch collected.field {
        case .title:
            if entry?.title == nil { entry?.title = FeedText(raw, kind: collected.kind) }
        case .secondaryTitle:
            if entry?.title == nil { entry?.title = FeedText(raw, kind: collected.kind) }
        case .link:
            if entry?.itemLink == nil { entry?.itemLink = FeedLink(href: value, baseChain: baseChain) }
        case .originalLink:
            if entry?.originalLink == nil { entry?.originalLink = FeedLink(href: value, baseChain: baseChain) }
        case .nativeID:
            if entry?.nativeID == nil { entry?.nativeID = value }
        case .summary:
            if entry?.summary == nil { entry?.summary = FeedText(raw, kind: collected.kind) }
        case .content:
            if entry?.content == nil { entry?.content = FeedText(raw, kind: collected.kind) }
        case .published(let rank):
            guard rank < publishedRank else { return }
            if entry?.publishedText == nil || rank < publishedRank {
                if let date = FeedDate.parse(value) {
                    entry?.published = date
                    entry?.publishedText = value
                    publishedRank = rank
                } else if entry?.publishedText == nil {
                    entry?.publishedText = value
                }
            }
        case .updated:
            if entry?.updated == nil {
                entry?.updated = FeedDate.parse(value)
                entry?.updatedText = value
            }
        case .author:
            entry?.authors.append(value)
        case .category:
            entry?.categories.append(value)
        default:
            break
        }
    }
}
