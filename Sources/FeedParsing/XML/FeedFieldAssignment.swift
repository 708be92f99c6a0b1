import FeedDates
import FeedModel

/// Puts a finished text value where it belongs. The first value of a field wins, except
/// for dates, where the better-ranked source wins (`pubDate` over `dc:date` over `dcterms:issued`).
extension FeedElementHandler {
    func apply(_ collected: TextCollector) {
        guard !collected.isBlank else { return }
        switch collected.field {
        case .feedTitle:
            if feed?.title == nil { feed?.title = FeedText(utf8: collected.bytes, kind: collected.kind) }
            return
        case .title, .secondaryTitle, .summary, .content:
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
        default:
            applyToEntry(collected, value: value)
        }
    }

    /// Titles and bodies keep their white space: normalisation decides what it means.
    private func applyRichText(_ collected: TextCollector) {
        guard isInEntry else { return }
        switch collected.field {
        case .title, .secondaryTitle:
            if entry!.title == nil { entry!.title = FeedText(utf8: collected.bytes, kind: collected.kind) }
        case .summary:
            if entry!.summary == nil { entry!.summary = FeedText(utf8: collected.bytes, kind: collected.kind) }
        case .content:
            if entry!.content == nil { entry!.content = FeedText(utf8: collected.bytes, kind: collected.kind) }
        default:
            break
        }
    }

    private func applyToEntry(_ collected: TextCollector, value: String) {
        guard isInEntry else { return }
        switch collected.field {
        case .link:
            if entry!.itemLink == nil { entry!.itemLink = FeedLink(href: value, baseChain: baseChain) }
        case .originalLink:
            if entry!.originalLink == nil { entry!.originalLink = FeedLink(href: value, baseChain: baseChain) }
        case .nativeID:
            if entry!.nativeID == nil { entry!.nativeID = value }
        case .published(let rank):
            guard rank < publishedRank else { return }
            if entry!.publishedText == nil || rank < publishedRank {
                if let date = FeedDate.parse(value) {
                    entry!.published = date
                    entry!.publishedText = value
                    publishedRank = rank
                } else if entry!.publishedText == nil {
                    entry!.publishedText = value
                }
            }
        case .updated:
            if entry!.updated == nil {
                entry!.updated = FeedDate.parse(value)
                entry!.updatedText = value
            }
        case .author:
            entry!.authors.append(value)
        case .category:
            entry!.categories.append(value)
        default:
            break
        }
    }
}
