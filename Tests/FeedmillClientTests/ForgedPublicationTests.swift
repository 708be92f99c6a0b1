import FeedmillClient
import Foundation
import GRDB
import PipelineTestSupport
import Testing
import TestSupport

/// A server that serves a forgery whose digests all agree with each other (issue 52): without
/// a pinned key the client cannot tell it from the publisher's, but it must not keep it once
/// the honest server is back, just because the version number it holds is the published one.
struct ForgedPublicationTests {
    @Test func aForgedFeedIsRepairedOnceTheHonestServerIsBack() async throws {
        let honest = try ClientFixture(feeds: 2, items: 2)
        let forger = try ClientFixture(feeds: 2, items: 2)
        try honest.publish()
        try forger.publish()
        let server = try HostileTestServer(directory: honest.servedPath)
        let base = try #require(URL(string: server.baseURL))
        func sync() async throws -> SyncReport {
            try await PublicationSync(baseURL: base, folder: honest.folder, feeds: .all, catalog: .published).run()
        }
        #expect(try await sync().problems.isEmpty)

        // The same change of version for feed 1 in both, with other items in the forgery.
        try honest.addEntries(1, ["honest-item"])
        try forger.addEntries(1, ["forged-item"])
        let published = try #require(try honest.publish().feed(1))
        let forged = try #require(try forger.publish().feed(1))
        try #require(published.version == forged.version && published.contentDigest != forged.contentDigest, "the forgery claims the published version")

        let forgery = forger.servedPath
        server.misbehave { path in
            FileManager.default.contents(atPath: forgery + path).map { .reply(status: 200, headers: [], body: [UInt8]($0)) }
                ?? .reply(status: 404, headers: [], body: [])
        }
        let accepted = try await sync()
        #expect(accepted.problems.isEmpty, "a consistent forgery is accepted by a client that pins no key: \(accepted.problems)")
        #expect(try Self.itemIDs(honest.path("feed_1.sqlite")).contains("forged-item"))

        server.behave()
        let repaired = try await sync()
        #expect(repaired.problems.isEmpty, "\(repaired.problems)")
        let items = try Self.itemIDs(honest.path("feed_1.sqlite"))
        #expect(items.contains("honest-item") && !items.contains("forged-item"), "the honest rows are back: \(items)")
        #expect(try IndependentDigest.of(honest.path("feed_1.sqlite"), catalog: false) == published.contentDigest)
    }

    static func itemIDs(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT id FROM items ORDER BY id") }
    }
}
