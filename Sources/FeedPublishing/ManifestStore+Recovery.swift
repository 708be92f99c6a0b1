import FeedBasics
import FeedStorage

/// `--recover`, and the resumption of a publication cut short before its first root: the
/// newest intact record of the shard, and only the files whose bytes it vouches for.
extension ManifestStore {
    /// The newest intact record of this shard (by generation; its bytes must have the digest
    /// its name gives) with its own entries given its publication id, else format 1's record.
    func newestRecord(_ listing: Set<String>) -> (record: Manifest, name: String, publication: String?)? {
        var best: (record: Manifest, name: String, publication: String?)?
        for name in listing.sorted() {
            guard case .record(let owner, _)? = PublishedName(fileName: name), owner == shard, target.holdsFile(name),
                case .found(let record) = read(name), record.isRecord
            else { continue }
            if best.map({ record.generation > $0.record.generation || (record.generation == $0.record.generation && name > $0.name) }) ?? true {
                let publication = PublicationJSON.publicationID(ofRecord: target.read(name) ?? []).publication
                best = (Self.resolved(record, publication: publication), name, publication)
            }
        }
        if let best { return best }
        if case .found(let record) = read(Self.recordName), !record.isRecord { return (record, Self.recordName, nil) }
        return nil
    }

    /// The record's publication, keeping only the files whose bytes still match its digests.
    /// Without a usable record nothing can be shown to be the publisher's: nothing is adopted,
    /// everything is left alone, and the publication starts anew beside it.
    func recovered(_ listing: Set<String>) -> Start {
        let versionedFiles = Self.versionedFiles(listing)
        guard let (record, recordName, publication) = newestRecord(listing) else {
            return Start(
                manifest: Manifest(),
                recovery: ["no intact publisher record of shard \(shard.label) is here: nothing adopted; the files here are left alone, "
                    + "and the publication starts anew beside them (a file at a stable name still stops it)"],
                present: versionedFiles)
        }
        var start = Start(manifest: record)
        // What was published before stays counted: a version dropped here is never given again.
        var floors: [PublishedName.Snapshot: Int] = [:]
        for feed in record.feeds { floors[.feed(feed.feedID)] = ([feed.version] + feed.history.map(\.version)).max() }
        if let catalog = record.catalog { floors[.catalog] = catalog.version }
        var digests: [String: String?] = [:]
        func matches(_ file: String, _ sha256: String) -> Bool {
            if digests[file] == nil { digests[file] = .some(digest(file)) }
            return digests[file] == sha256
        }
        start.manifest.feeds = record.feeds.compactMap { feed in
            guard matches(feed.file, feed.sha256) else {
                start.recovery.append("feed \(feed.feedID): \(feed.file) is not what was published; the feed is published anew")
                return nil
            }
            var kept = feed
            kept.history = feed.history.filter { matches($0.file, $0.sha256) }
            kept.deltas = feed.deltas.filter { matches($0.file, $0.sha256) }
            // The pointer's previous entry is not vouched for any more: the next pointer gives the new one alone.
            kept.previousEntry = nil
            return kept
        }
        if let catalog = record.catalog, !matches(catalog.file, catalog.sha256) {
            start.recovery.append("\(catalog.file) is not what was published; the catalog is published anew")
            start.manifest.catalog = nil
        }
        // A stable name is adopted when its bytes are those of the snapshot it stands for.
        let current = Dictionary(
            start.manifest.feeds.map { ($0.name, $0.sha256) } + (start.manifest.catalog.map { [($0.name, $0.sha256)] } ?? []),
            uniquingKeysWith: { first, _ in first })
        start.manifest.stableFiles = (record.stableFiles ?? []).filter { name in
            guard listing.contains(name) else { return false }
            guard let sha256 = current[name], matches(name, sha256) else {
                start.recovery.append("\(name) is not what was published under that name: left alone")
                return false
            }
            return true
        }
        // Retired files carry no digest: they are not adopted, and so never removed.
        start.manifest.retiredFiles = nil
        start.manifest.retired = nil
        start.manifest.rootCatalogs = nil
        // Written again from the catalog (the same bytes keep their names): not vouched for here.
        start.manifest.catalogPages = nil
        start.manifest.newest = nil
        let recovery = start.recovery
        let legacy = !record.isRecord
        start = Start(manifest: start.manifest, recovery: recovery, present: versionedFiles)
        start.legacy = legacy
        start.resolvedPublication = publication
        // The record is superseded by the next one, which retires it as it retires the record a
        // root named: a first publication cut short before its root otherwise left its record
        // for good beside the one the rerun commits (issue 52).
        start.recordName = recordName
        start.versionFloors.merge(floors) { max($0, $1) }
        // Every pointer is rewritten: none can be vouched for.
        start.repairAll = true
        let adopted = start.manifest.feeds.count + (start.manifest.catalog == nil ? 0 : 1)
        start.recovery.insert(
            "recovered generation \(record.generation) from \(recordName): \(adopted) snapshot(s) and "
                + "\(start.manifest.stableFiles?.count ?? 0) stable name(s) adopted by their digests", at: 0)
        return start
    }

    /// A plain file's digest: a link or a directory is never the publisher's own.
    func digest(_ name: String) -> String? {
        guard target.holdsFile(name), let bytes = target.read(name) else { return nil }
        return SHA256.hexDigest(bytes)
    }
}
