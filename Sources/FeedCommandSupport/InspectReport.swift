import FeedModel

/// The JSON `rss-inspect` prints: the keys clients and people rely on, in a fixed order,
/// plus (with `details`) what helps a person see why a feed looks wrong.
public enum InspectReport {
    public static func json(_ feed: NormalizedFeed, parsed: ParsedFeed, details: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("format", .string(feed.format.rawValue)),
            ("title", .string(feed.title)),
            ("link", .optional(feed.link)),
        ]
        if details {
            members += [
                ("version", .optional(parsed.version)),
                ("encoding", .string(parsed.encoding)),
                ("hints", hints(feed.hints)),
                ("diagnostics", .array(feed.diagnostics.map(JSONValue.string))),
            ]
        }
        let rawByIndex = parsed.entries
        members.append(("items", .array(feed.entries.map { entry in item(entry, raw: rawByIndex, details: details) })))
        return .object(members)
    }

    private static func item(_ entry: Entry, raw: [ParsedEntry], details: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(entry.id)),
            ("permalink", .optional(entry.permalink)),
            ("title", .string(entry.title)),
            ("summary", .string(entry.summary)),
            ("pubdate_unix_time", .optional(entry.pubdate)),
            ("updated_unix_time", .optional(entry.updated)),
            ("author", .optional(entry.author)),
        ]
        if details {
            members += [
                ("id_source", .string(entry.idSource.rawValue)),
                ("thumbnail", .optional(entry.thumbnail)),
                ("categories", .array(entry.categories.map(JSONValue.string))),
                (
                    "enclosures",
                    .array(
                        entry.enclosures.map { enclosure in
                            .object([
                                ("url", .string(enclosure.url)), ("type", .optional(enclosure.type)),
                                ("length", .optional(enclosure.length)),
                            ])
                        })
                ),
            ]
        }
        return .object(members)
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
}
