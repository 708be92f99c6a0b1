import FeedBasics
import FeedStorage
import Foundation

/// The publisher's memory of what a shard published: the root (`manifest.json`), which
/// clients read, names each shard's record (`publisher.<K>of<N>.<sha256>.json`), its full
/// state. A directory published in format 1 holds a format-1 `manifest.json` instead, read as
/// the previous record, so the directory is upgraded in place.
///
/// Everything is read as untrusted input: a root, record or manifest that does not decode,
/// whose digest is not its name, or that names anything but the publisher's own file names
/// (``Manifest/misnamed``), is not used. Without `--recover` the publication then stops and
/// says how to recover, since publishing over files it can no longer account for could
/// replace what it did not write. `--recover` adopts again the files whose bytes match the
/// digests of the newest intact record of the shard (or format 1's `.feedmill-publisher.json`).
struct ManifestStore {
    let target: any PublicationTarget
    let shard: Shard

    static let manifestName = RootNames.root
    static let recordName = PublishedName.legacyRecord.fileName

    /// What a record or manifest file holds.
    enum Reading {
        case found(Manifest)
        case missing
        /// Why it cannot be used.
        case unusable(String)
    }

    /// Where the next publication starts from, and what recovering said.
    struct Start {
        /// The shard's last committed record (its own entries given their publication id), a
        /// format-1 manifest, or an empty one.
        var manifest: Manifest
        /// The root read (none when absent, of format 1 or unusable) and its version.
        var root: PublicationRoot?
        var rootVersion: RootVersion = .absent
        /// The previous record's name, retired by the next one.
        var recordName: String?
        /// The publication id its own entries (which its pages hold without one) were given
        /// (``resolved(_:publication:)``); nil for a format-1 manifest or none.
        var resolvedPublication: String?
        /// The previous manifest is format 1's: every feed is written under its format-2 name.
        var legacy = false
        /// Feeds whose pointers an uncommitted publication wrote (its intent): rewritten.
        var repair: Set<Int64> = []
        /// The intent there could not be read: every pointer of the shard is rewritten.
        var repairAll = false
        /// The intent of the committed publication, when it says its pages are still to write.
        var pagesPending: PublishIntent?
        /// `--recover`: what was adopted and what was left alone.
        var recovery: [String] = []
        /// Versioned files here the publication cannot vouch for: left alone, never removed.
        var leftAlone: Set<String> = []
        /// The highest version any format-1 file here has, by snapshot (feed 3, the catalog):
        /// new versions are counted above, so no client ever sees one version number twice.
        var versionFloors: [PublishedName.Snapshot: Int] = [:]
        /// Every name there at the start: the one listing a publication makes (on object
        /// storage a listing of a large publication is many requests, and a question per name
        /// one each).
        var listing: Set<String> = []

        /// A start that vouches for `manifest`'s files alone, in a directory holding `present`.
        init(manifest: Manifest, recovery: [String] = [], present: Set<String>? = nil) {
            self.manifest = manifest
            self.recovery = recovery
            guard let present else { return }
            leftAlone = present.subtracting(manifest.files)
            for name in present {
                guard let (snapshot, version) = PublishedName(fileName: name)?.version else { continue }
                versionFloors[snapshot] = max(versionFloors[snapshot] ?? 0, version)
            }
        }

        /// This shard's entry in the root read.
        func shardEntry(_ shard: Shard) -> ShardEntry? { root?.shards[shard.label] }
    }

    /// A record or format-1 manifest at `name`; a record's bytes must have the digest its name
    /// gives, and so must each of its pages (``Manifest/feedPages``), whose feeds it holds then.
    func read(_ name: String) -> Reading {
        guard let bytes = target.read(name) else {
            return target.serves(name) ? .unusable("cannot be read") : .missing
        }
        if case .record(_, let sha256)? = PublishedName(fileName: name), SHA256.hexDigest(bytes) != sha256 {
            return .unusable("does not have the SHA-256 its name gives")
        }
        let reading = Self.decode(bytes)
        guard case .found(var manifest) = reading else { return reading }
        if let pages = manifest.feedPages {
            let size = RecordPage.size(formatVersion: manifest.formatVersion)
            var feeds: [PublishedFeed] = []
            for page in pages {
                guard let pageBytes = target.read(page.file) else { return .unusable("its page \(page.file) is missing") }
                guard SHA256.hexDigest(pageBytes) == page.sha256,
                    let document = try? JSONDecoder().decode(RecordPageDocument.self, from: Data(pageBytes)),
                    document.page == page.page, document.feeds.count == page.count,
                    document.feeds.allSatisfy({ $0.feedID / size == Int64(page.page) })
                else { return .unusable("its page \(page.file) is not the one it names") }
                feeds += document.feeds
            }
            manifest.feeds = feeds
        }
        // A compact record's feeds inline (edited by hand) still name its catalog index only.
        if (manifest.formatVersion ?? 0) >= Manifest.compactRecordFormatVersion { completeCompact(&manifest) }
        if let problem = manifest.misnamed { return .unusable(problem) }
        return .found(manifest)
    }

    /// A format-4 record's stable names with those its feeds and catalog give (a record keeps
    /// only the others), and its catalog index with its groups from their files, when they are
    /// there with the SHA-256 the record names (otherwise the pages are written again).
    private func completeCompact(_ manifest: inout Manifest) {
        let derived = StableNames.names(of: manifest)
        if manifest.stableFiles != nil || !derived.isEmpty {
            manifest.stableFiles = Set((manifest.stableFiles ?? []) + derived).sorted()
        }
        guard let kept = manifest.catalogPages else { return }
        manifest.catalogPages = CatalogPagesKept.read(kept.index, from: target.read)
    }

    /// Puts the pages of `manifest`'s feeds (a page already there with those bytes is not put
    /// again: only the pages whose feeds changed are written) and names them in it. A page of
    /// the record `start` read whose feeds are the same, none of them an entry of that record's
    /// own publication (its page holds them without the id, which the next record gives), is
    /// that page: named again without being encoded (issue 51: encoding and hashing every page
    /// was a tenth of a one-feed publication). The bytes written, for the report.
    func writePages(of manifest: inout Manifest, written: WrittenFiles, start: Start? = nil) throws(PublishError) -> (files: Int, bytes: Int) {
        var pages: [RecordPage] = []
        var totals = (files: 0, bytes: 0)
        let size = RecordPage.size(formatVersion: manifest.formatVersion)
        let byPage = Dictionary(grouping: manifest.feeds) { Int($0.feedID / size) }
        // Without the id its own entries were given, no page of it can be told unchanged.
        let previous = start.flatMap { start in
            start.resolvedPublication.map { (record: start.manifest, own: $0) }
        }.flatMap { $0.record.isRecord && $0.record.formatVersion == manifest.formatVersion ? $0 : nil }
        let kept = Dictionary((previous?.record.feedPages ?? []).map { ($0.page, $0) }, uniquingKeysWith: { first, _ in first })
        let before = Dictionary(grouping: previous?.record.feeds ?? []) { Int($0.feedID / size) }
        for (page, feeds) in byPage.sorted(by: { $0.key < $1.key }) {
            let sorted = feeds.sorted { $0.feedID < $1.feedID }
            if let previous, let same = kept[page], same.count == sorted.count, let earlier = before[page],
                !sorted.contains(where: { $0.entryPublication == previous.own }),
                earlier.sorted(by: { $0.feedID < $1.feedID }) == sorted
            {
                pages.append(same)
                continue
            }
            let bytes = try PublicationJSON.encode(RecordPageDocument(page: page, feeds: sorted), what: target.location + "/publisher record page \(page)")
            let sha256 = SHA256.hexDigest(bytes)
            let file = PublishedName.recordPage(shard, page: page, sha256: sha256).fileName
            if try target.putImmutable(bytes, as: file) {
                written.add(file)
                totals.files += 1
                totals.bytes += bytes.count
            }
            pages.append(RecordPage(page: page, file: file, sha256: sha256, count: sorted.count))
        }
        manifest.feedPages = pages
        return totals
    }

    static func decode(_ bytes: [UInt8]) -> Reading {
        let data = Data(bytes)
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            return .unusable(data.isEmpty ? "is empty" : "is not a manifest this publisher wrote (\(Self.brief(error)))")
        }
        if let problem = manifest.misnamed ?? manifest.unknownFormat { return .unusable(problem) }
        return .found(manifest)
    }

    /// What `manifest.json` holds: a format-2 root, a format-1 manifest, or neither.
    enum RootReading {
        case root(PublicationRoot)
        case legacy(Manifest)
        case unusable(String)
    }

    static func decodeRoot(_ bytes: [UInt8]) -> RootReading {
        struct Probe: Decodable {
            var format: String?
            var formatVersion: Int?
            enum CodingKeys: String, CodingKey {
                case format
                case formatVersion = "format_version"
            }
        }
        guard let probe = try? JSONDecoder().decode(Probe.self, from: Data(bytes)) else {
            return .unusable(bytes.isEmpty ? "is empty" : "is not a manifest this publisher wrote")
        }
        if probe.format == Manifest.formatName, let version = probe.formatVersion,
            version != Manifest.currentFormatVersion, version != Manifest.legacyFormatVersion
        {
            return .unusable("has format_version \(version), which this publisher does not know (it writes \(Manifest.currentFormatVersion))")
        }
        if probe.formatVersion == Manifest.currentFormatVersion, probe.format == Manifest.formatName {
            do {
                let root = try JSONDecoder().decode(PublicationRoot.self, from: Data(bytes))
                if let problem = root.misnamed { return .unusable(problem) }
                return .root(root)
            } catch {
                return .unusable("is not a root this publisher wrote (\(brief(error)))")
            }
        }
        switch decode(bytes) {
        case .found(let manifest) where !manifest.isRecord: return .legacy(manifest)
        case .found: return .unusable("is a publisher record, not a manifest")
        case .missing: return .unusable("is missing")
        case .unusable(let reason): return .unusable(reason)
        }
    }

    /// The previous publication of this shard: the record the root names when it is sound;
    /// a format-1 manifest to upgrade; nothing when the shard has never been published here;
    /// with `recover`, what the newest intact record vouches for. Otherwise an error that says
    /// what is wrong and how to recover.
    func start(recover: Bool) throws(PublishError) -> Start {
        let manifestPath = target.location + "/" + Self.manifestName
        // A listing that fails stops the publication before anything is read or written.
        let listing = Set(try target.names())
        let versionedFiles = Self.versionedFiles(listing)
        let (bytes, version) = try target.readRoot(Self.manifestName)
        var start: Start
        if let bytes {
            switch Self.decodeRoot(bytes) {
            case .root(let root):
                if let entry = root.shards[shard.label] {
                    switch read(entry.record) {
                    case .found(let record) where record.isRecord && record.generation == entry.generation
                        && PublicationJSON.publicationID(ofRecord: target.read(entry.record) ?? []).publication == entry.publication:
                        start = Start(manifest: Self.resolved(record, publication: entry.publication), present: versionedFiles)
                        start.recordName = entry.record
                        start.resolvedPublication = entry.publication
                    case .found where !recover:
                        throw Self.lost(target.location + "/" + entry.record, "is not the record the root names")
                    case .missing where !recover:
                        throw Self.lost(target.location + "/" + entry.record, "is missing")
                    case .unusable(let reason) where !recover:
                        throw Self.lost(target.location + "/" + entry.record, reason)
                    default:
                        start = recovered(listing)
                    }
                } else if hasRecords(listing) {
                    // Records of this shard the root never named: its first publication here was
                    // cut short before its commit (or another shard's --recover dropped its entry).
                    // Its newest intact record is adopted by digests, so no version goes back.
                    start = recovered(listing)
                } else {
                    // A shard the root does not know yet (or a new N): its first publication.
                    start = Start(manifest: Manifest(), present: versionedFiles)
                }
                start.root = root
            case .legacy(let manifest):
                start = Start(manifest: manifest, present: versionedFiles)
                start.legacy = true
            case .unusable(let reason):
                guard recover else { throw Self.lost(manifestPath, reason) }
                start = recovered(listing)
            }
        } else if !recover, !hasRecords(listing) {
            // Never published here: a first publication, which writes no version under a name
            // a file already has.
            start = Start(manifest: Manifest(), present: versionedFiles)
        } else if !recover, !Self.everCommitted(listing) {
            // Records, but no page and no stable name, which follow every commit: the first
            // publication here was cut short before its root. Resumed from its newest record.
            start = recovered(listing)
        } else if !recover {
            throw Self.lost(manifestPath, "is missing, but rss-publish has published here (its records are here)")
        } else {
            start = recovered(listing)
        }
        start.rootVersion = version
        start.listing = listing
        readIntent(into: &start)
        return start
    }

    /// The shard's intent, when one of a publication the root does not vouch for is there.
    private func readIntent(into start: inout Start) {
        let name = PublishedName.intent(shard).fileName
        guard let bytes = target.read(name) else {
            start.repairAll = start.listing.contains(name)
            return
        }
        guard let intent = try? JSONDecoder().decode(PublishIntent.self, from: Data(bytes)) else {
            start.repairAll = true
            return
        }
        let entry = start.shardEntry(shard)
        if entry?.generation != intent.generation || entry?.publication != intent.publication {
            start.repair = Set(intent.feeds)
        } else if intent.pagesWritten != true {
            start.pagesPending = intent
        }
    }

    /// The record's own entries given its publication id (a record cannot hold its own digest).
    static func resolved(_ record: Manifest, publication: String) -> Manifest {
        var record = record
        for index in record.feeds.indices where record.feeds[index].entryPublication == nil {
            record.feeds[index].entryPublication = publication
            if record.feeds[index].entryGeneration == nil { record.feeds[index].entryGeneration = record.generation }
        }
        return record
    }

    /// The bytes of a record: its feeds in its pages when it has them (``writePages(of:written:)``);
    /// from format 4, without the stable names its feeds and catalog give (``completeCompact(_:)``).
    func encoded(_ manifest: Manifest) throws(PublishError) -> [UInt8] {
        var record = manifest
        if (record.formatVersion ?? 0) >= Manifest.compactRecordFormatVersion, let stable = record.stableFiles {
            let derived = Set(StableNames.names(of: record))
            record.stableFiles = stable.filter { !derived.contains($0) }
        }
        if record.feedPages != nil { record.feeds = [] }
        return try PublicationJSON.encode(record, what: target.location + "/publisher record")
    }

    /// Whether a root was ever committed here: the pages and stable names are written after
    /// every commit, and only then.
    private static func everCommitted(_ listing: Set<String>) -> Bool {
        listing.contains { name in
            switch PublishedName(fileName: name) {
            case .atom?, .index?, .catalog?, .feed?: return true
            default: return false
            }
        }
    }

    /// Whether this shard has published here: a record of it, or format 1's.
    private func hasRecords(_ listing: Set<String>) -> Bool {
        listing.contains { name in
            switch PublishedName(fileName: name) {
            case .record(let owner, _)?: return owner == shard
            case .legacyRecord?: return true
            default: return false
            }
        }
    }

    /// Files here under the names format 1 gave versions and deltas: none of them is written
    /// over by a publication that cannot account for them (and so a listing that fails stops
    /// the publication).
    static func versionedFiles(_ listing: Set<String>) -> Set<String> {
        listing.filter { mayBeVersioned($0) && PublishedName(fileName: $0)?.version != nil }
    }

    /// Whether `name` holds ".v", as every versioned name does (`feed_3.v2.sqlite`,
    /// `feed_3.v1-v2.delta.json`, `all_feeds.v4.sqlite`) and no content-addressed one can (its
    /// digest is hex): parsing every name of a large publication was a twentieth of a one-feed
    /// publication at a million feeds.
    static func mayBeVersioned(_ name: String) -> Bool {
        var afterDot = false
        for byte in name.utf8 {
            if afterDot && byte == UInt8(ascii: "v") { return true }
            afterDot = byte == UInt8(ascii: ".")
        }
        return false
    }

    private static func lost(_ path: String, _ reason: String) -> PublishError {
        .storage(StorageError(
            path: path,
            message: "\(reason). Nothing was published. Run rss-publish --recover to adopt again the files whose bytes match "
                + "the digests recorded in the newest intact publisher record (anything else is left alone) and publish, "
                + "or publish into a new directory"))
    }

    static func brief(_ error: any Error) -> String {
        let text = "\(error)"
        return text.count > 120 ? String(text.prefix(119)) + "…" : text
    }
}
