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
        // Versions and generations are counted up by one per publication: anything past 2^53
        // (where a client's JSON number stops being exact) was not written by a publisher.
        guard (0...Self.largestCount).contains(generation) else { return "gives generation \(generation), not one a publisher counts to" }
        for feed in feeds {
            if let problem = feed.misnamed { return problem }
        }
        if let catalog {
            if catalog.name != PublishedName.catalog.fileName { return Self.unexpected(catalog.name, "the catalog's name") }
            if !Self.counted(catalog.version) || catalog.file != PublishedName.catalogVersion(catalog.version).fileName {
                return Self.unexpected(catalog.file, "the catalog's version \(catalog.version)")
            }
        }
        if let atom, atom != PublishedName.atom.fileName { return Self.unexpected(atom, "atom") }
        if let index, index != PublishedName.index.fileName { return Self.unexpected(index, "index") }
        for name in (retiredFiles ?? []) + (stableFiles ?? []) where !PublishedFiles.isPublisherName(name) {
            return Self.unexpected(name, "a file the publisher wrote")
        }
        return nil
    }

    /// Why this publisher cannot read the manifest as its own format, if it cannot: another
    /// `format`, or a `format_version` it does not know (written by a newer publisher, whose
    /// meaning it could misread). Absent fields are a manifest written before they existed.
    var unknownFormat: String? {
        if let format, format != Self.formatName { return "is a \"\(format.prefix(40))\" file, not a \(Self.formatName)" }
        if let formatVersion, formatVersion != Self.currentFormatVersion {
            return "has format_version \(formatVersion), which this publisher does not know (it writes \(Self.currentFormatVersion))"
        }
        return nil
    }

    static let largestCount = 1 << 53

    static func counted(_ version: Int) -> Bool { (1...largestCount).contains(version) }

    /// The count after `count` (a version, a generation), or `nil` past ``largestCount``: how
    /// every count goes up, so that no value read back (a manifest, a file name) can make it
    /// overflow, and nothing is published under a number a publisher would refuse to read back.
    static func count(after count: Int) -> Int? {
        count < largestCount ? Swift.max(count, 0) + 1 : nil
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
        if name != PublishedName.feed(id).fileName { return Manifest.unexpected(name, "feed \(id)'s name") }
        if !Manifest.counted(version) || file != PublishedName.feedVersion(id, version: version).fileName { return Manifest.unexpected(file, "feed \(id)'s version \(version)") }
        for old in history where !Manifest.counted(old.version) || old.file != PublishedName.feedVersion(id, version: old.version).fileName {
            return Manifest.unexpected(old.file, "feed \(id)'s earlier version \(old.version)")
        }
        for delta in deltas where !Manifest.counted(delta.fromVersion) || delta.file != PublishedName.feedDelta(id, from: delta.fromVersion, to: version).fileName {
            return Manifest.unexpected(delta.file, "feed \(id)'s delta from version \(delta.fromVersion)")
        }
        return nil
    }
}
