import FeedBasics
import FeedmillClient
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Notices each new root of the publication (`manifest.json`, looked at every `interval`, and
/// at once when inotify says the directory changed: a `stat` of a directory's, a conditional
/// GET of a bucket's, and a read only when it changed),
/// whoever committed it (`rss-publish` from cron or by hand, on any host), and turns it into
/// one event per feed whose version it changed. The changed feeds are those each changed
/// shard's intent lists (the pointers its publication wrote), read only when the intent is
/// that very publication's; otherwise every pointer is looked at.
struct PublicationWatcher: Sendable {
    let source: any PublicationSource
    let hub: EventHub
    let logger: Logger
    let metrics: ServeMetrics
    /// The feeds with a pointer, listed once per root (a listing of a million names is not
    /// made per connection).
    private let listed = Listed()

    final class Listed: Sendable {
        let feeds = Mutex<(generation: Int, feeds: [Int64])?>(nil)
    }

    init(source: any PublicationSource, hub: EventHub, logger: Logger, metrics: ServeMetrics) {
        self.source = source
        self.hub = hub
        self.logger = logger
        self.metrics = metrics
    }

    /// Watches until the task is cancelled.
    func run(interval: Duration) async {
        var seen: String?
        var current: RootManifest?
        var failing: String?
        while !Task.isCancelled {
            // A look may block (a request to a bucket): off the cooperative pool.
            let look = await Self.offPool { [source, seen] in source.lookAtRoot(known: seen) }
            switch look {
            case .unchanged, .absent:
                break
            case .failed(let why):
                if failing == nil { logger.warning("\(source.location)/manifest.json cannot be read (\(why)); trying again each look") }
                failing = why
            case .root(let bytes, let version, let committed):
                seen = version
                guard let root = try? JSONDecoder().decode(RootManifest.self, from: Data(bytes)) else {
                    logger.warning("manifest.json is not a format-2 root; waiting for the next one")
                    break
                }
                guard let previous = current else {
                    current = root
                    hub.start(at: root)
                    break
                }
                guard root.generation > previous.generation else { break }
                let events = await Self.offPool { self.events(from: previous, to: root) }
                current = root
                hub.publish(root, events: events)
                // From the root's commit (its mtime) to its events handed over.
                if let committed { metrics.observePublication(Double(Self.nanosecondsSinceEpoch() - committed) / 1e9) }
                metrics.countResyncs(events.filter { $0.kind == .resync }.count)
                metrics.eventsSent(feeds: events.map(\.feedID))
                logger.info("generation \(root.generation): \(events.count) feed event(s)")
            }
            var failed = false
            if case .failed = look { failed = true }
            if failing != nil, !failed {
                logger.notice("\(source.location)/manifest.json can be read again")
                failing = nil
            }
            if let notifier = source.notifier {
                let milliseconds = Int32(clamping: interval.components.seconds * 1_000 + interval.components.attoseconds / 1_000_000_000_000_000)
                await Self.offPool { notifier.wait(milliseconds: milliseconds) }
            } else {
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// `work` on a Dispatch thread, awaited.
    static func offPool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    static func nanosecondsSinceEpoch() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// The events of the commit from `previous` to `root`.
    func events(from previous: RootManifest?, to root: RootManifest) -> [FeedEvent] {
        // Commits missed between two looks (two within one interval): the feeds they changed
        // are known only by their entries' generations, and no patch is from the client's version.
        if let previous, root.generation > previous.generation + 1 {
            return allPointerFeeds(root).sorted().compactMap { feedID in
                guard let pointer = pointer(feedID, root: root), let entry = root.firstUsable(of: pointer),
                    entry.generation > previous.generation
                else { return nil }
                return Self.resync(feedID, entry: entry, generation: root.generation, reason: "publications were missed")
            }
        }
        var feeds = Set<Int64>()
        for (label, commit) in root.shards where previous?.shards[label] != commit {
            if let listed = intentFeeds(label, commit) {
                feeds.formUnion(listed)
            } else {
                feeds.formUnion(allPointerFeeds(root))
                break
            }
        }
        return feeds.sorted().compactMap { feedID in
            guard let pointer = pointer(feedID, root: root), let entry = root.firstUsable(of: pointer),
                root.shards[entry.shard]?.generation == entry.generation
            else { return nil }
            let before = Self.entryBefore(entry, in: pointer)
            guard before?.file.version != entry.file.version else { return nil }
            return event(feedID, entry: entry, from: before, generation: root.generation)
        }
    }

    /// The entry a feed had before `entry`: the next older one of its pointer (the publisher
    /// keeps the last committed one beside the new one).
    static func entryBefore(_ entry: PointerEntry, in pointer: FeedPointer) -> PointerEntry? {
        guard let index = pointer.entries.firstIndex(of: entry) else { return nil }
        return pointer.entries[(index + 1)...].first { $0.file.version < entry.file.version }
    }

    /// A `patch` event when the entry offers a delta from the version before (checked against
    /// its SHA-256 and size), a `resync` otherwise.
    func event(_ feedID: Int64, entry: PointerEntry, from before: PointerEntry?, generation: Int) -> FeedEvent {
        var fields = Self.entryFields(feedID, entry)
        fields["generation"] = generation
        if let before, let delta = entry.file.deltas.first(where: { $0.fromVersion == before.file.version }),
            PublishedFileName.from(path: "/" + delta.file) != nil, let bytes = source.read(delta.file),
            bytes.count == delta.size, SHA256.hexDigest(bytes) == delta.sha256,
            let made = try? ItemPatch.make(fromDelta: bytes, feedID: feedID),
            made.fromVersion == before.file.version, made.toVersion == entry.file.version,
            made.toContentDigest == nil || made.toContentDigest == entry.file.contentDigest
        {
            fields["from_version"] = before.file.version
            fields["patch"] = made.operations
            return FeedEvent(kind: .patch, generation: generation, feedID: feedID, data: FeedEvent.json(fields))
        }
        return Self.resync(feedID, entry: entry, generation: generation, reason: before == nil ? "no earlier version" : "no delta from the earlier version")
    }

    /// A `resync` event: fetch the file the entry names.
    static func resync(_ feedID: Int64, entry: PointerEntry, generation: Int, reason: String) -> FeedEvent {
        var fields = entryFields(feedID, entry)
        fields["generation"] = generation
        fields["reason"] = reason
        return FeedEvent(kind: .resync, generation: generation, feedID: feedID, data: FeedEvent.json(fields))
    }

    /// What every event says of the entry: the version the client reaches and how to check it.
    static func entryFields(_ feedID: Int64, _ entry: PointerEntry) -> [String: Any] {
        var fields: [String: Any] = [
            "feedid": feedID, "to_version": entry.file.version, "file": entry.file.file, "sha256": entry.file.sha256,
            "size": entry.file.size, "schema_version": entry.file.schemaVersion, "shard": entry.shard,
        ]
        if let digest = entry.file.contentDigest { fields["content_digest"] = digest }
        return fields
    }

    /// Feed `feedID`'s pointer, when it is there and is that feed's.
    func pointer(_ feedID: Int64, root: RootManifest) -> FeedPointer? {
        let name = root.pointerName(for: feedID)
        guard PublishedFileName.from(path: "/" + name) != nil, let bytes = source.read(name),
            let pointer = try? JSONDecoder().decode(FeedPointer.self, from: Data(bytes)), pointer.feedID == feedID
        else { return nil }
        return pointer
    }

    /// The feeds a shard's intent lists, when it is the intent of `commit`'s publication.
    func intentFeeds(_ label: String, _ commit: ShardCommit) -> [Int64]? {
        struct Intent: Decodable {
            var generation: Int
            var publication: String
            var feeds: [Int64]
        }
        let name = ".feedmill-intent." + label.replacingOccurrences(of: "/", with: "of") + ".json"
        guard let bytes = source.read(name), let intent = try? JSONDecoder().decode(Intent.self, from: Data(bytes)),
            intent.generation == commit.generation, intent.publication == commit.publication
        else { return nil }
        return intent.feeds
    }

    /// Every feed with a pointer in the publication, listed once per root generation.
    func allPointerFeeds(_ root: RootManifest) -> [Int64] {
        if let known = listed.feeds.withLock({ $0 }), known.generation == root.generation { return known.feeds }
        let parts = root.feedPointer.components(separatedBy: "{feedid}")
        guard parts.count == 2, let names = source.names() else { return [] }
        let feeds = names.compactMap { name -> Int64? in
            guard name.hasPrefix(parts[0]), name.hasSuffix(parts[1]), name.count > parts[0].count + parts[1].count else { return nil }
            return Int64(name.dropFirst(parts[0].count).dropLast(parts[1].count))
        }
        listed.feeds.withLock { $0 = (root.generation, feeds) }
        return feeds
    }
}
