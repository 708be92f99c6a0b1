import FeedBasics

/// What a root may name, checked before the publisher acts on one (as ``Manifest/misnamed``
/// for records): a root is read back from where anyone with access can write.
extension PublicationRoot {
    /// The first name that breaks the rules, described: every shard entry's record must be a
    /// record name of that shard, the catalog a catalog snapshot's name.
    var misnamed: String? {
        guard (0...Manifest.largestCount).contains(generation) else { return "gives generation \(generation), not one a publisher counts to" }
        for (label, entry) in shards {
            guard let shard = try? Shard(parsing: label) else { return "names shard \"\(label.prefix(20))\", not one a publisher gives" }
            guard case .record(let owner, _)? = PublishedName(fileName: entry.record), owner == shard else {
                return Manifest.unexpected(entry.record, "shard \(label)'s record")
            }
        }
        if let catalog {
            if catalog.name != PublishedName.catalog.fileName { return Manifest.unexpected(catalog.name, "the catalog's name") }
            if !Manifest.isName(catalog.file, of: .catalog, version: catalog.version, sha256: catalog.sha256) {
                return Manifest.unexpected(catalog.file, "the catalog's version \(catalog.version)")
            }
        }
        return nil
    }
}
