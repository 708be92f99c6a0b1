import FeedModel

/// The JSON `rss-inspect` prints: the keys clients and people rely on, in a fixed order,
/// plus (with `details`) what helps a person see why a feed looks wrong.
///
/// Without `details` it is what the databases store: the feed's `about` fields, and per item
/// the `items` columns, with the reader fields' JSON columns (`enclosures_json`,
/// `categories_json`, `authors_json`) as arrays (`[]` where the column is NULL), their objects
/// with the same keys in the same order and absent ones omitted.
public enum InspectReport {
    public static func json(_ read: ReadFeed, details: Bool) -> JSONValue {
        let feed = read.normalized
        var members: [(String, JSONValue)] = [
            ("format", .string(feed.format.rawValue)),
            ("title", .string(feed.title)),
            ("link", .optional(feed.link)),
            ("description", .optional(feed.about.description)),
            ("image_url", .optional(feed.about.imageURL)),
            ("language", .optional(feed.about.language)),
        ]
        if details {
            members += [
                ("version", .optional(read.version)),
                ("encoding", .string(read.encoding)),
                ("hints", hints(feed.hints)),
                ("diagnostics", .array(feed.diagnostics.map(JSONValue.string))),
            ]
        }
        members.append(("items", .array(feed.entries.map { entry in item(entry, details: details) })))
        return .object(members)
    }

    private static func item(_ entry: Entry, details: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(entry.id)),
            ("permalink", .optional(entry.permalink)),
            ("title", .string(entry.title)),
            ("summary", .string(entry.summary.text)),
            ("pubdate_unix_time", .optional(entry.pubdate)),
            ("updated_unix_time", .optional(entry.updated)),
            ("author", .optional(entry.author)),
            ("image_url", .optional(entry.image)),
            ("enclosures", .array(entry.enclosures.map(enclosure))),
            ("categories", .array(entry.categories.map(category))),
            ("authors", .array(entry.authors.map(person))),
        ]
        if details {
            members.append(("id_source", .string(entry.idSource.rawValue)))
        }
        return .object(members)
    }

    /// Keys in the order of the stored JSON; an absent value's key is left out, as there.
    private static func present(_ members: [(String, JSONValue?)]) -> JSONValue {
        .object(members.compactMap { key, value in value.map { (key, $0) } })
    }

    private static func enclosure(_ enclosure: Enclosure) -> JSONValue {
        present([
            ("url", .string(enclosure.url)), ("type", enclosure.type.map(JSONValue.string)),
            ("length", enclosure.length.map(JSONValue.integer)), ("duration", enclosure.duration.map(JSONValue.integer)),
        ])
    }

    private static func category(_ category: EntryCategory) -> JSONValue {
        present([
            ("term", .string(category.term)), ("label", category.label.map(JSONValue.string)),
            ("scheme", category.scheme.map(JSONValue.string)),
        ])
    }

    private static func person(_ person: Person) -> JSONValue {
        present([
            ("name", person.name.map(JSONValue.string)), ("email", person.email.map(JSONValue.string)),
            ("uri", person.uri.map(JSONValue.string)),
        ])
    }

    private static func hints(_ hints: SchedulingHints) -> JSONValue {
        .object([
            ("ttl_minutes", .optional(hints.ttlMinutes.map(Int64.init))),
            ("skip_hours", .array(hints.skipHours.map { .integer(Int64($0)) })),
            ("skip_days", .array(hints.skipDays.map(JSONValue.string))),
            ("update_period", .optional(hints.updatePeriod)),
            ("update_frequency", .optional(hints.updateFrequency.map(Int64.init))),
        ])
    }

    /// `atom 1.0 | SourceGear Blogs | 5 items, 5 with permalink, 0 undated | UTF-8 | clean`
    public static func summaryLine(_ read: ReadFeed) -> String {
        let feed = read.normalized
        let entries = feed.entries
        let withPermalink = entries.filter { $0.permalink != nil }.count
        let undated = entries.filter { $0.pubdate == nil }.count
        let health = feed.diagnostics.first.map { "\($0); see --details" } ?? "clean"
        let format = [feed.format.rawValue, read.version].compactMap { $0 }.joined(separator: " ")
        let title = feed.title.isEmpty ? "(untitled)" : feed.title
        return "\(format) | \(title) | \(entries.count) items, \(withPermalink) with permalink, \(undated) undated | \(read.encoding) | \(health)"
    }
}
