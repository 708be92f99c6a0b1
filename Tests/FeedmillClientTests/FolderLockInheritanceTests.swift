import FeedmillClient
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The folder's lock is the client's alone: a process an app starts while a sync runs (a
/// helper, a share extension's tool) must not inherit it and make every later sync "busy"
/// for as long as that process lives.
struct FolderLockInheritanceTests {
    @Test func aProcessStartedDuringASyncDoesNotKeepTheFolderLocked() async throws {
        let fixture = try ClientFixture(feeds: 1, items: 1)
        try fixture.publish()
        let server = try HostileTestServer(directory: fixture.servedPath)
        server.misbehave { $0 == "/manifest.json" ? .drip(interval: 0.2) : nil }
        let base = try #require(URL(string: server.baseURL))
        let sync = PublicationSync(baseURL: base, folder: fixture.folder, transport: CurlTransport(timeout: 1.5))
        let held = Task { try await sync.run() }
        try await Task.sleep(for: .milliseconds(500))
        // posix_spawn, as an app's process launcher does: no closing of descriptors on its own.
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("6"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ) == 0)
        defer { kill(pid, SIGKILL); waitpid(pid, nil, 0) }
        _ = try? await held.value
        server.behave()
        let report = try await PublicationSync(baseURL: base, folder: fixture.folder).run()
        #expect(report.problems.isEmpty)
    }
}
