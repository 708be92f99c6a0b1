import FeedPublishing
import FeedmillClient
import Foundation
import GRDB
import PipelineTestSupport
import TestSupport

/// A real publication (feeds written through FeedStorage, published by `PublishRun` into a
/// directory, served in publication format 2: ``Format2Publication``) over HTTP on 127.0.0.1,
/// and a client folder to sync it into.
final class ClientFixture {
    let publisher: PublishHarness
    let publication: Format2Publication
    let server: StaticDirectoryServer
    let client: TemporaryDirectory
    /// The publication's URL on the server.
    let base: URL
    /// The clock the client's syncs read (unix seconds), moved by a test.
    let now = Locked<Double>(1_800_000_000)

    init(feeds: Int = 3, items: Int = 4) throws {
        publisher = try PublishHarness()
        try publisher.seed(feeds: feeds, items: items)
        publication = try Format2Publication(source: publisher.outPath)
        server = try StaticDirectoryServer(directory: publication.path)
        client = try TemporaryDirectory()
        guard let base = URL(string: server.baseURL) else { throw FixtureProblem("no base URL") }
        self.base = base
    }

    var folder: URL { client.url }

    func path(_ name: String) -> String { client.url.appendingPathComponent(name).path }

    /// The served (format-2) publication's directory.
    var servedPath: String { publication.path }

    /// Publishes the data directory as it is now and serves it in format 2; the digests are
    /// checked against those computed here, independently of both the publisher and the client.
    @discardableResult
    func publish() throws -> PublishedView {
        _ = try publisher.publish()
        try PublishedDigests.check(publisher.outPath)
        try publication.update()
        return try view()
    }

    /// The served publication as it is now.
    func view() throws -> PublishedView { try PublishedView(directory: servedPath) }

    /// A sync of the served publication. `catalog`: the published one by default, as most tests
    /// here check what the client does with it (following every feed, it always is);
    /// `FollowedCatalogTests` checks the client's own.
    func sync(
        _ feeds: FollowedFeeds = .all, catalogMaxAge: TimeInterval = PublicationSync.defaultCatalogMaxAge,
        catalog: PublicationSync.CatalogSource = .published
    ) async throws(ClientError) -> SyncReport {
        let now = self.now
        return try await PublicationSync(
            baseURL: base, folder: folder, feeds: feeds, catalogMaxAge: catalogMaxAge, clock: { Date(timeIntervalSince1970: now.value) },
            catalog: catalog
        ).run()
    }

    /// Every file in the client folder with its bytes: what must not change.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = FileManager.default.contents(atPath: path(name))
        }
        return files
    }

    /// Serves, in place of the published `manifest.json`, the published one as `edit` changes
    /// it: what a broken mirror or a future publisher would hand the client.
    func serveManifest(edited edit: (inout [String: Any]) throws -> Void) throws {
        let url = URL(fileURLWithPath: servedPath + "/manifest.json")
        guard var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw FixtureProblem("manifest.json is not an object")
        }
        try edit(&manifest)
        let changed = [UInt8](try JSONSerialization.data(withJSONObject: manifest))
        server.respond { path, _ in path == "/manifest.json" ? .init(body: changed) : nil }
    }

    /// Rewrites the served root (`manifest.json`) as `edit` changes it.
    func editRoot(_ edit: (inout [String: Any]) throws -> Void) throws {
        var root = try Format2Publication.readJSON(servedPath + "/manifest.json")
        try edit(&root)
        try Format2Publication.writeJSON(root, to: servedPath + "/manifest.json")
    }

    /// Rewrites feed `id`'s served pointer as `edit` changes it (its ETag changes with its bytes).
    func editPointer(_ id: Int64, _ edit: (inout [String: Any]) throws -> Void) throws {
        var pointer = try Format2Publication.readJSON(servedPath + "/feed_\(id).json")
        try edit(&pointer)
        try Format2Publication.writeJSON(pointer, to: servedPath + "/feed_\(id).json")
    }

    /// Rewrites each entry of feed `id`'s served pointer.
    func editEntries(_ id: Int64, _ edit: (inout [String: Any]) throws -> Void) throws {
        try editPointer(id) { pointer in
            var entries = pointer["entries"] as? [[String: Any]] ?? []
            for index in entries.indices { try edit(&entries[index]) }
            pointer["entries"] = entries
        }
    }

    /// Adds entries to feed `id` (written as the pipeline writes them).
    func addEntries(_ id: Int64, _ ids: [String], now: Int64 = 6_000) throws {
        try publisher.write(id, ids.map { entry($0, title: "New \($0)", pubdate: now) }, now: now)
    }
}

/// The publication's manifest against ``IndependentDigest``: every `content_digest` it gives
/// must be the digest of its file's rows. A manifest from before the publisher wrote digests
/// gets them written in here (with `format` and `format_version`), so the client's checks run
/// on real publications either way.
enum PublishedDigests {
    static func check(_ directory: String) throws {
        let url = URL(fileURLWithPath: directory + "/manifest.json")
        guard var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw FixtureProblem("manifest.json is not an object")
        }
        var changed = false
        func digest(_ entry: inout [String: Any], catalog: Bool) throws {
            guard let file = entry["file"] as? String else { throw FixtureProblem("an entry without file") }
            let computed = try IndependentDigest.of(directory + "/" + file, catalog: catalog)
            if let given = entry["content_digest"] as? String {
                guard given == computed else { throw FixtureProblem("\(file): the manifest gives \(given), the rows give \(computed)") }
            } else {
                entry["content_digest"] = computed
                changed = true
            }
        }
        if var catalog = manifest["catalog"] as? [String: Any] {
            try digest(&catalog, catalog: true)
            manifest["catalog"] = catalog
        }
        if var feeds = manifest["feeds"] as? [[String: Any]] {
            for index in feeds.indices { try digest(&feeds[index], catalog: false) }
            manifest["feeds"] = feeds
        }
        guard changed else { return }
        if manifest["format"] == nil {
            manifest["format"] = "feedmill-manifest"
            manifest["format_version"] = 1
        }
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: url, options: .atomic)
    }
}

struct FixtureProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
