import FeedStorage
import Foundation

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

    /// The same for the pointers of `feeds`: a file at `feed_<id>.json` the previous record
    /// does not name that is not a feed pointer of that feed (an operator's own file, in a
    /// directory upgraded from format 1 or a prefix shared with something else) stops the
    /// publication before anything is written. A pointer another publisher wrote (another
    /// shard, another N, a run cut short) is one, and is taken over.
    static func refuseForeignPointers(
        feeds: [Int64], previous: Manifest, present: Set<String>, in target: any PublicationTarget
    ) throws(PublishError) {
        let owned = previous.isRecord ? previous.files : []
        for id in feeds {
            let name = PublishedName.pointer(id).fileName
            guard present.contains(name), !owned.contains(name) else { continue }
            if let bytes = target.read(name), let pointer = try? JSONDecoder().decode(FeedPointer.self, from: Data(bytes)),
                pointer.format == FeedPointer.formatName, pointer.feedID == id
            {
                continue
            }
            throw .storage(StorageError(
                path: target.location + "/" + name,
                message: "is there but is not a feed pointer rss-publish wrote; move it away, it would be replaced"))
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
