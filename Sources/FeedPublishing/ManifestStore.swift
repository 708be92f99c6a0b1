import FeedBasics
import FeedStorage
import Foundation

/// The publisher's memory of what it wrote: `manifest.json`, which clients read, and a copy
/// of it, `.feedmill-publisher.json`, kept for one purpose: when the manifest is deleted,
/// truncated or edited, `rss-publish --recover` re-adopts the publisher's own files by the
/// digests recorded there, instead of every stable-named file having to be moved by hand.
///
/// Both are read as untrusted input: a manifest that does not decode, or that names anything
/// but the publisher's own file names (``Manifest/misnamed``), is not used. Without `--recover`
/// the publication then stops and says how to recover, since publishing over files it can no
/// longer account for could replace what it did not write.
struct ManifestStore {
    let target: any PublicationTarget

    static let manifestName = "manifest.json"
    static let recordName = ".feedmill-publisher.json"

    /// What a manifest file holds.
    enum Reading {
        case found(Manifest)
        case missing
        /// Why it cannot be used.
        case unusable(String)
    }

    /// Where the next publication starts from, and what recovering said.
    struct Start {
        var manifest: Manifest
        /// `--recover`: what was adopted and what was left alone.
        var recovery: [String] = []
        /// Versioned files here the publication cannot vouch for: left alone, never removed.
        var leftAlone: Set<String> = []
        /// The highest version any file here has, by snapshot (feed 3, the catalog), whether the
        /// publication can vouch for it or not: new versions are numbered above, so none writes
        /// over a file that is there and no client ever sees one version number twice.
        var versionFloors: [PublishedName.Snapshot: Int] = [:]

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
    }

    func read(_ name: String) -> Reading {
        guard let bytes = target.read(name) else {
            return target.serves(name) ? .unusable("cannot be read") : .missing
        }
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

    /// The previous publication: the manifest when it is sound; nothing when the directory has
    /// never been published into; with `recover`, what the record vouches for. Otherwise an
    /// error that says what is wrong and how to recover.
    func start(recover: Bool) throws(PublishError) -> Start {
        let manifestPath = target.location + "/" + Self.manifestName
        switch read(Self.manifestName) {
        case .found(let manifest):
            // A file put since under a name the next version would take is counted above.
            return Start(manifest: manifest, present: try versionedFiles())
        case .missing where !recover && !target.serves(Self.recordName):
            // Never published here (or before the record was kept): a first publication, which
            // writes no version under a name a file already has.
            return Start(manifest: Manifest(), present: try versionedFiles())
        case .missing where !recover:
            throw Self.lost(manifestPath, "is missing, but rss-publish has published here (its record \(Self.recordName) is here)")
        case .unusable(let reason) where !recover:
            throw Self.lost(manifestPath, reason)
        default:
            return try recovered()
        }
    }

    /// The manifest's bytes, as both the manifest and the record hold them.
    func encoded(_ manifest: Manifest) throws(PublishError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = try rethrowing(try encoder.encode(manifest), as: { (error: any Error) in
            PublishError.storage(StorageError(path: target.location + "/" + Self.manifestName, message: "encoding the manifest failed: \(error)"))
        })
        return [UInt8](json) + [0x0A]
    }

    /// Swaps the new manifest in: from here on the publication has happened.
    func writeManifest(_ bytes: [UInt8]) throws(PublishError) {
        try target.putManifest(bytes, as: Self.manifestName)
    }

    /// Keeps the record of the publication just made, after its manifest: a record is only
    /// ever of a publication that happened. A record that cannot be written (a disk filled
    /// meanwhile) fails nothing; the previous one stays, and recovering from it republishes
    /// what it cannot vouch for. Returns why it was not written, if it was not.
    func writeRecord(_ bytes: [UInt8]) -> String? {
        do throws(PublishError) {
            try target.put(bytes, as: Self.recordName)
            return nil
        } catch {
            return "the record of this publication could not be written (\(error.description)); the previous one is kept"
        }
    }

    /// Files here under the names the publisher gives versions and deltas: none of them is
    /// written over by a publication that cannot account for them (and so a listing that fails
    /// stops the publication).
    private func versionedFiles() throws(PublishError) -> Set<String> {
        Set(try target.names().filter { PublishedFiles.isPublisherName($0) && $0.contains(".v") })
    }

    private static func lost(_ path: String, _ reason: String) -> PublishError {
        .storage(StorageError(
            path: path,
            message: "\(reason). Nothing was published. Run rss-publish --recover to adopt again the files whose bytes match "
                + "the digests recorded in \(recordName) (anything else is left alone) and publish, or publish into a new directory"))
    }

    /// The record's publication, keeping only the files whose bytes still match its digests.
    /// Without a usable record nothing can be shown to be the publisher's: nothing is adopted,
    /// everything is left alone, and the publication starts anew beside it.
    private func recovered() throws(PublishError) -> Start {
        let record: Manifest
        switch read(Self.recordName) {
        case .found(let found): record = found
        case .missing, .unusable:
            return Start(
                manifest: Manifest(),
                recovery: ["\(Self.recordName) is missing or unusable: nothing adopted; the files here are left alone, "
                    + "and the publication starts anew beside them (a file at a stable name still stops it)"],
                present: try versionedFiles())
        }
        var start = Start(manifest: record)
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
            guard target.serves(name) else { return false }
            guard let sha256 = current[name], matches(name, sha256) else {
                start.recovery.append("\(name) is not what was published under that name: left alone")
                return false
            }
            return true
        }
        // Retired files carry no digest: they are not adopted, and so never removed.
        start.manifest.retiredFiles = nil
        let recovery = start.recovery
        start = Start(manifest: start.manifest, recovery: recovery, present: try versionedFiles())
        let adopted = start.manifest.feeds.count + (start.manifest.catalog == nil ? 0 : 1)
        start.recovery.insert(
            "recovered generation \(record.generation) from \(Self.recordName): \(adopted) snapshot(s) and "
                + "\(start.manifest.stableFiles?.count ?? 0) stable name(s) adopted by their digests", at: 0)
        return start
    }

    /// A plain file's digest: a link or a directory is never the publisher's own.
    private func digest(_ name: String) -> String? {
        guard target.holdsFile(name), let bytes = target.read(name) else { return nil }
        return SHA256.hexDigest(bytes)
    }

    private static func brief(_ error: any Error) -> String {
        let text = "\(error)"
        return text.count > 120 ? String(text.prefix(119)) + "…" : text
    }
}
