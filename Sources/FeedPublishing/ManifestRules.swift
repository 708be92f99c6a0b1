/// What a manifest may name, checked before the publisher acts on one: the manifest is read
/// back from a directory anyone with access can edit, and the publisher opens, reads and
/// removes files by the names it finds there. Every name must be the one the publisher itself
/// gives for that entry (`feed_3.v2.sqlite` for version 2 of feed 3, never `../victim.txt`, a
/// path, or another feed's file): a manifest naming anything else was not written by this
/// publisher and is not used (see ``ManifestStore``).
extension Manifest {
    /// The first name that breaks the rules, described; `nil` when every name is the
    /// publisher's own.
    var misnamed: String? {
        for feed in feeds {
            if let problem = feed.misnamed { return problem }
        }
        if let catalog {
            if catalog.name != "all_feeds.sqlite" { return Self.unexpected(catalog.name, "the catalog's name") }
            if catalog.version < 1 || catalog.file != "all_feeds.v\(catalog.version).sqlite" {
                return Self.unexpected(catalog.file, "the catalog's version \(catalog.version)")
            }
        }
        if let atom, atom != "atom.xml" { return Self.unexpected(atom, "atom") }
        if let index, index != "index.html" { return Self.unexpected(index, "index") }
        for name in (retiredFiles ?? []) + (stableFiles ?? []) where !PublishedFiles.isPublisherName(name) {
            return Self.unexpected(name, "a file the publisher wrote")
        }
        return nil
    }

    static func unexpected(_ name: String, _ role: String) -> String {
        "names \"\(name.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined())\" "
            + "as \(role), not a name the publisher gives"
    }
}

extension PublishedFeed {
    var misnamed: String? {
        let id = feedID
        guard id >= 1 else { return Manifest.unexpected(name, "feed \(id)") }
        if name != "feed_\(id).sqlite" { return Manifest.unexpected(name, "feed \(id)'s name") }
        if version < 1 || file != "feed_\(id).v\(version).sqlite" { return Manifest.unexpected(file, "feed \(id)'s version \(version)") }
        for old in history where old.version < 1 || old.file != "feed_\(id).v\(old.version).sqlite" {
            return Manifest.unexpected(old.file, "feed \(id)'s earlier version \(old.version)")
        }
        for delta in deltas where delta.fromVersion < 1 || delta.file != "feed_\(id).v\(delta.fromVersion)-v\(version).delta.json" {
            return Manifest.unexpected(delta.file, "feed \(id)'s delta from version \(delta.fromVersion)")
        }
        return nil
    }
}
