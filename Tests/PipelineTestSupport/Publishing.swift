import FeedBasics
import FeedFetching
import FeedModel
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import TestSupport

/// A data directory with feeds written straight through FeedStorage, and a publish directory.
public final class PublishHarness {
    public let harness: Harness
    public let out: TemporaryDirectory
    public var retained = 3

    public init() throws {
        harness = try Harness()
        out = try TemporaryDirectory()
    }

    public var outPath: String { out.url.path }

    /// Creates feeds `1...count` with `items` entries each.
    public func seed(feeds count: Int, items: Int) throws {
        let ids = try harness.add((1...count).map { "https://feeds.example/\($0).xml" })
        for id in ids {
            try write(id, (0..<items).map { entry("f\(id)-\($0)", title: "Entry \($0)", pubdate: 1_000 + Int64($0)) })
            var feed = try harness.feed(id)
            feed.title = "Feed \(id)"
            feed.lastUpdate = 1_700_000_000
            try harness.catalog.save(feed)
        }
    }

    public func write(_ id: Int64, _ entries: [Entry], now: Int64 = 5_000) throws {
        try Self.write(id, entries, at: harness.databasePath(id), catalog: harness.catalog, now: now)
    }

    /// Writes `entries` into the feed's database as the update does: marked in the catalog's
    /// change log around the commit (``Catalog/markWriting(_:)``), so a publication reads it.
    public static func write(_ id: Int64, _ entries: [Entry], at path: String, catalog: Catalog, now: Int64 = 5_000) throws {
        let upsert = try FeedDatabase(path: path).beginUpsert(now: now)
        for entry in entries { try upsert.add(entry) }
        // A run of its own, as each update is: marked above what publications read before.
        try catalog.beginChanges()
        try catalog.markWriting(id)
        _ = try upsert.commit()
        try catalog.markWritten(id)
    }

    public var retireAfter: Int64 = 0

    public func publish(
        only: [Int64]? = nil, into directory: String? = nil, full: Bool = false, shard: Shard = .all, recover: Bool = false
    ) throws -> PublishReport {
        var configuration = PublishConfiguration()
        configuration.outputDirectory = directory ?? outPath
        configuration.retainedVersions = retained
        configuration.full = full
        configuration.shard = shard
        configuration.retireAfter = retireAfter
        return try PublishRun(harness: harness, configuration: configuration).run(only: only, recover: recover)
    }

    /// The publisher's record of shard 1/1, as the root names it (every feed's entry, history, deltas).
    public func manifest(_ directory: String? = nil) throws -> Manifest {
        try PublicationReader.record(directory ?? outPath)
    }

    /// The root, `manifest.json`.
    public func root(_ directory: String? = nil) throws -> PublicationRoot {
        try PublicationReader.root(directory ?? outPath)
    }

    /// `name → (size, modification date)` of every file in the publish directory.
    public func listing() throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: outPath) {
            let attributes = try FileManager.default.attributesOfItem(atPath: outPath + "/" + name)
            result[name] = ["\(attributes[.size] ?? 0)", "\(attributes[.modificationDate] ?? 0)"]
        }
        return result
    }
}

public func entry(_ id: String, title: String = "T", pubdate: Int64? = 1_000, summary: String = "<p>S</p>") -> Entry {
    Entry(id: id, idSource: .native, permalink: "https://site.example/\(id)", title: title, summary: SafeHTML(summary), pubdate: pubdate, updated: nil, author: nil)
}

public func sha256(ofFile path: String) -> String? {
    FileManager.default.contents(atPath: path).map { SHA256.hexDigest([UInt8]($0)) }
}

/// Reads the publication over and over as a client does (the root, every pointer's usable
/// entry) and checks that every file they name exists with its hash.
public final class ManifestChecker: Sendable {
    public let directory: String
    private struct Tally {
        var running = true
        var done = false
        var count = 0
        var problems: [String] = []
    }
    private let tally = Mutex(Tally())

    public init(directory: String) {
        self.directory = directory
    }

    public func poll() {
        while tally.withLock({ $0.running }) {
            let local = PublicationReader.problems(directory)
            tally.withLock {
                $0.count += 1
                $0.problems += local
            }
        }
        tally.withLock { $0.done = true }
    }

    public func stop() { tally.withLock { $0.running = false } }
    public var finished: Bool { tally.withLock { $0.done } }
    public var checks: Int { tally.withLock { $0.count } }
    public var failures: [String] { tally.withLock { $0.problems } }
}

/// A publication of the harness's data directory into a new temporary directory.
public func makePublisher(for harness: Harness) throws -> (PublishRun, TemporaryDirectory) {
    let out = try TemporaryDirectory()
    var configuration = PublishConfiguration()
    configuration.outputDirectory = out.url.path
    return (PublishRun(harness: harness, configuration: configuration), out)
}

extension PublishRun {
    /// A publication of the harness's data directory, on the harness's clock.
    public init(harness: Harness, configuration: PublishConfiguration, target: (any PublicationTarget)? = nil) {
        var configuration = configuration
        configuration.clock = { [harness] in harness.now }
        self.init(data: harness.configuration.data, configuration: configuration, catalog: harness.catalog, target: target)
    }
}

/// A value shared between a test and a thread it starts.
public final class Locked<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>

    public init(_ value: Value) { stored = Mutex(value) }

    public var value: Value { stored.withLock { $0 } }
    public func set(_ value: Value) { stored.withLock { $0 = value } }
}

/// A feed's database written as `rss-update` writes it, for tests that change a feed between
/// publications: marked in the change log of the catalog beside it around the commit, so the
/// next publication reads it (``CatalogChanges``). `path` is `<data>/feed_<id>.sqlite`.
public struct ChangedFeed {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func upsert(_ entries: [Entry], now: Int64) throws {
        let name = (path as NSString).lastPathComponent
        guard name.hasPrefix("feed_"), name.hasSuffix(".sqlite"), let id = Int64(name.dropFirst(5).dropLast(7)) else {
            throw StorageError(path: path, message: "is not a feed database's name")
        }
        let catalog = try Catalog(path: (path as NSString).deletingLastPathComponent + "/" + Catalog.fileName)
        try PublishHarness.write(id, entries, at: path, catalog: catalog, now: now)
    }
}
