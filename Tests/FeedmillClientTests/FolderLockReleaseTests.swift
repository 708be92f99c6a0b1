@testable import FeedmillClient
import Foundation
import Testing

/// A sync lets the next one in when it ends, not when the last reference to it goes: a
/// completion handler finishing on another thread can hold the session a moment after
/// `run()` returned, and the caller's next sync was then told "another sync is writing"
/// (seen under load in the format-2 tests).
@Suite("The folder's lock after a sync")
struct FolderLockReleaseTests {
    @Test func theNextSyncIsNotBusyWhileTheLastSessionIsStillReferenced() async throws {
        let fixture = try ClientFixture()
        try fixture.publish()
        let session = try SyncSession(
            PublicationSync(baseURL: fixture.base, folder: fixture.folder, clock: { Date(timeIntervalSince1970: 1_800_000_000) }))
        let first = try await session.run()
        #expect(first.problems.isEmpty)
        // The first session is still alive here, as a late completion handler would keep it.
        let second = try await fixture.sync()
        #expect(second.problems.isEmpty)
        withExtendedLifetime(session) {}
    }
}
