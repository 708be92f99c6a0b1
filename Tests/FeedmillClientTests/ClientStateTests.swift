import FeedmillClient
import Foundation
import PipelineTestSupport
import Testing
import TestSupport

/// The client's state file across versions and transports: a state written before format 2
/// still reads, and the ETags it keeps work for a publication on a mounted volume too.
struct ClientStateTests {
    /// A state from before format 2 (no pointers, no catalog time): read, nothing downloaded
    /// again, and the pointers and catalog time added.
    @Test func aStateWrittenBeforeFormat2IsReadAndNothingIsDownloadedAgain() async throws {
        let fixture = try ClientFixture()
        let published = try fixture.publish()
        _ = try await fixture.sync()
        let statePath = fixture.path(".feedmill-client.json")
        var state = try Format2Publication.readJSON(statePath)
        #expect(state["pointers"] != nil && state["catalog_checked_unix_time"] != nil)
        state["pointers"] = nil
        state["catalog_checked_unix_time"] = nil
        try Format2Publication.writeJSON(state, to: statePath)

        let report = try await fixture.sync()
        #expect(report.outcome == .upToDate && report.problems.isEmpty, "\(report)")
        #expect(report.fullDownloads.isEmpty && report.notModified == 0 && report.catalog?.action == .current)
        let rewritten = try Format2Publication.readJSON(statePath)
        #expect((rewritten["pointers"] as? [String: Any])?.count == 3)
        #expect(rewritten["format_version"] as? Int == 1)
        try expectFolder(fixture, holds: published)
        // Revalidated from now on.
        #expect(try await fixture.sync().notModified == 3)
    }

    /// A publication read from the file system (`file:` URL): the transport's ETags make an
    /// unchanged pointer a 304 there too, and a changed one is read again.
    @Test func aPublicationOnAMountedVolumeIsRevalidatedToo() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        let sync = PublicationSync(baseURL: URL(fileURLWithPath: fixture.servedPath, isDirectory: true), folder: fixture.folder)
        let first = try await sync.run()
        #expect(first.problems.isEmpty && first.fullDownloads.count == 4)
        let second = try await sync.run()
        #expect(second.outcome == .upToDate && second.notModified == 3 && second.bytesInPointers == 0)
        try fixture.addEntries(2, ["f2-new"])
        let published = try fixture.publish()
        let third = try await sync.run()
        #expect(third.notModified == 2 && third.deltaDownloads == ["feed_2.sqlite"], "\(third)")
        try expectFolder(fixture, holds: published)
    }
}
