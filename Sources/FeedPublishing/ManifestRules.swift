import FeedBasics

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
            if !Self.counted(catalog.version)
                || (catalog.file != PublishedName.catalogVersion(catalog.version).fileName
                    && catalog.file != PublishedName.catalogSnapshot(sha256: catalog.sha256).fileName)
            {
                return Self.unexpected(catalog.file, "the catalog's version \(catalog.version)")
            }
        }
        if let atom, atom != PublishedName.atom.fileName { return Self.unexpected(atom, "atom") }
        if let index, index != PublishedName.index.fileName { return Self.unexpected(index, "index") }
        for page in feedPages ?? [] {
            guard case .recordPage(_, page.page, page.sha256)? = PublishedName(fileName: page.file) else {
                return Self.unexpected(page.file, "the record's page \(page.page)")
            }
        }
        let named = (retiredFiles ?? []) + (stableFiles ?? []) + (retired ?? []).map(\.name) + (rootCatalogs ?? [])
        for name in named where !PublishedFiles.isPublisherName(name) {
            return Self.unexpected(name, "a file the publisher wrote")
        }
        if let shard, (try? Shard(parsing: shard)) == nil { return "names shard \"\(shard.prefix(20))\", not one a publisher gives" }
        return nil
    }

    /// A format-1 name of the file `version` of a feed or the catalog, or the format-2 name
    /// of its digest: the two a record may give.
    static func isName(_ file: String, of snapshot: PublishedName.Snapshot, version: Int, sha256: String) -> Bool {
        guard counted(version) else { return false }
        switch snapshot {
        case .feed(let id):
            return file == PublishedName.feedVersion(id, version: version).fileName
                || file == PublishedName.feedSnapshot(id, sha256: sha256).fileName
        case .catalog:
            return file == PublishedName.catalogVersion(version).fileName || file == PublishedName.catalogSnapshot(sha256: sha256).fileName
        }
    }

    /// A delta's format-1 or format-2 name.
    static func isDeltaName(_ file: String, feed id: Int64, from: Int, to: Int, sha256: String) -> Bool {
        counted(from) && (file == PublishedName.feedDelta(id, from: from, to: to).fileName || file == PublishedName.feedDeltaFile(id, sha256: sha256).fileName)
    }

    /// Why this publisher cannot read the manifest as its own format, if it cannot: another
    /// `format`, or a `format_version` it does not know (written by a newer publisher, whose
    /// meaning it could misread). Absent fields are a manifest written before they existed.
    var unknownFormat: String? {
        if let format, format != Self.formatName, format != Self.recordFormatName {
            return "is a \"\(format.prefix(40))\" file, not a \(Self.formatName)"
        }
        let known = isRecord ? Self.currentFormatVersion...Self.recordFormatVersion : Self.legacyFormatVersion...Self.legacyFormatVersion
        if let formatVersion, !known.contains(formatVersion) {
            let writes = isRecord ? Self.recordFormatVersion : Self.currentFormatVersion
            return "has format_version \(formatVersion), which this publisher does not know (it writes \(writes))"
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
        if !Manifest.isName(file, of: .feed(id), version: version, sha256: sha256) { return Manifest.unexpected(file, "feed \(id)'s version \(version)") }
        for old in history where !Manifest.isName(old.file, of: .feed(id), version: old.version, sha256: old.sha256) {
            return Manifest.unexpected(old.file, "feed \(id)'s earlier version \(old.version)")
        }
        for delta in deltas where !Manifest.isDeltaName(delta.file, feed: id, from: delta.fromVersion, to: version, sha256: delta.sha256) {
            return Manifest.unexpected(delta.file, "feed \(id)'s delta from version \(delta.fromVersion)")
        }
        if let previous = previousEntry {
            if previous.name != name || !Manifest.isName(previous.file, of: .feed(id), version: previous.version, sha256: previous.sha256) {
                return Manifest.unexpected(previous.file, "feed \(id)'s previous entry")
            }
            for delta in previous.deltas where !Manifest.isDeltaName(delta.file, feed: id, from: delta.fromVersion, to: previous.version, sha256: delta.sha256) {
                return Manifest.unexpected(delta.file, "feed \(id)'s previous delta from version \(delta.fromVersion)")
            }
        }
        return nil
    }
}
