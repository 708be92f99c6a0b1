import FeedStorage

/// `all_feeds.sqlite` and `feed_<id>.sqlite`: the names the original z_rss client syncs,
/// published beside the versioned files for clients that know nothing of the manifest.
///
/// Each stable name serves the current versioned snapshot, swapped in in one step
/// (``PublicationTarget/alias(_:to:)``): a reader opening it gets the old snapshot or the new
/// one, whole, never a mix. The links are brought up to date on every run, even one that
/// changed nothing, so a run interrupted between the manifest and the links is healed by the
/// next. Feeds are linked before the catalog, so a client that reads a feed id from
/// `all_feeds.sqlite` finds its `feed_<id>.sqlite`; a removed feed's name goes only after the
/// catalog that no longer lists it.
enum StableNames {
    /// Names the publisher owns: those in `previous.stableFiles`. A file already at a stable
    /// name that the publisher did not write (an operator's own `feed_3.sqlite`) stops the
    /// publication before anything is written: it is never replaced or removed.
    /// The catalog's stable name is whoever commits the root's, so it is owned as soon as a
    /// format-2 root is there (`rootExists`).
    /// `present` is the target's listing.
    static func refuseForeign(
        names: [String], previous: Manifest, rootExists: Bool, present: Set<String>, in target: any PublicationTarget
    ) throws(PublishError) {
        var owned = Set(previous.stableFiles ?? [])
        if rootExists { owned.insert(PublishedName.catalog.fileName) }
        for name in names where !owned.contains(name) && present.contains(name) {
            throw .storage(StorageError(
                path: target.location + "/" + name,
                message: "is there but was not published by rss-publish; move it away, it would be replaced"))
        }
    }

    /// Every stable name a manifest serves, feeds first.
    static func names(of manifest: Manifest) -> [String] {
        manifest.feeds.map(\.name) + (manifest.catalog.map { [$0.name] } ?? [])
    }

    /// Points every stable name at its current snapshot and removes the names of feeds no
    /// longer published, then makes the changes durable together (one flush, not one per
    /// name: a power cut before it leaves a name at its previous snapshot, whole, and the next
    /// run brings it up to date). Returns how many names changed.
    /// `catalog` is the root's catalog (the merged one when shards publish together).
    static func sync(_ manifest: Manifest, catalog: RootCatalog?, in target: any PublicationTarget) throws(PublishError) -> Int {
        var changed = 0
        let targets = manifest.feeds.map { ($0.name, $0.file) } + (catalog.map { [($0.name, $0.file)] } ?? [])
        for (name, file) in targets where try target.alias(name, to: file) { changed += 1 }
        let current = Set(targets.map(\.0))
        for name in manifest.stableFiles ?? [] where !current.contains(name) {
            if target.delete(name) { changed += 1 }
        }
        if changed > 0 { try target.makeDurable() }
        return changed
    }
}
