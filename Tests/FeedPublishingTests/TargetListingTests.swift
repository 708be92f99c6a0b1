import FeedPublishing
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// A target whose listing fails is not an empty one: the publication counts its versions above
/// the files it finds and takes back only its own temporaries, so taking a failed listing for
/// an empty target could replace a file the publisher did not write. The run stops instead.
@Suite("Publication: a target that cannot be listed")
struct TargetListingTests {
    private func run(_ publish: PublishHarness, into target: MemoryTarget) throws -> PublishReport {
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publish.outPath + "/never-created"
        return try PublishRun(harness: publish.harness, configuration: configuration, target: target).run()
    }

    @Test func aFirstPublicationStopsBeforeWritingOverAFileItCannotSeeIsThere() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        let foreign: [String: [UInt8]] = ["feed_1.v1.sqlite": Array("not the publisher's".utf8)]
        let target = try MemoryTarget(holding: foreign)
        target.failListing()
        #expect(throws: PublishError.unusableTarget(location: "memory:", reason: "cannot be listed")) { try run(publish, into: target) }
        #expect(target.files == foreign && target.events.isEmpty, "nothing put, nothing deleted: \(target.events)")
    }

    @Test func aPublicationThatCannotListWhatToRetireStopsAndTakesBackWhatItWrote() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 2, items: 1)
        let target = try MemoryTarget()
        _ = try run(publish, into: target)
        let published = target.files
        try publish.write(1, [entry("new")])
        target.failListing()
        #expect(throws: PublishError.unusableTarget(location: "memory:", reason: "cannot be listed")) { try run(publish, into: target) }
        #expect(target.read("manifest.json") == published["manifest.json"], "the previous publication is what clients still see")
        #expect(Set(target.files.keys) == Set(published.keys), "what the failed run wrote is taken back")
    }

    @Test func aDirectoryThatIsNotThereOrNotADirectoryCannotBeListed() throws {
        let scratch = try TemporaryDirectory()
        let file = try scratch.write("a-file", "x")
        for path in [scratch.url.path + "/missing", file] {
            let target = DirectoryTarget(path: path, awayFrom: scratch.url.path + "/data")
            #expect(throws: PublishError.self) { try target.names() }
            do {
                _ = try target.names()
            } catch {
                #expect(error.description.hasPrefix("cannot use output directory \(path): cannot be listed ("), "\(error)")
            }
        }
        let listed = DirectoryTarget(path: scratch.url.path, awayFrom: scratch.url.path + "/data")
        #expect(try listed.names() == ["a-file"])
    }

    // Root lists any directory whatever its mode, and `rss-publish` run as another user
    // (`runuser`) cannot even lock a directory it cannot read: the failure is reached as
    // an unprivileged user only.
    @Test(.enabled(if: getuid() != 0, "as root every directory can be listed, whatever its mode"))
    func aDirectoryWritableButNotReadableCannotBeListed() throws {
        let scratch = try TemporaryDirectory()
        let out = scratch.url.path + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o300], ofItemAtPath: out)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: out) }
        let target = DirectoryTarget(path: out, awayFrom: scratch.url.path + "/data")
        #expect(throws: PublishError.unusableTarget(location: out, reason: "cannot be listed (Permission denied)")) { try target.names() }
    }
}
