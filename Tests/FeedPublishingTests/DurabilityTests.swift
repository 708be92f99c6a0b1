import FeedBasics
import FeedPublishing
import FeedStorage
import Foundation
import PipelineTestSupport
import TestSupport
import Testing

/// Durability is paid once per publication, not once per file (issue 41): the versioned files
/// are written without a flush each and made durable together before the manifest names them.
@Suite("What a publication pays for durability")
struct DurabilityTests {
    /// A publication of `feeds` feeds into a publish directory, with the flushes it asked for.
    private func firstAndChanged(feeds: Int) throws -> (first: PublishReport, firstFlushes: Int, changed: PublishReport, changedFlushes: Int) {
        let publish = try PublishHarness()
        try publish.seed(feeds: feeds, items: 3)
        let (first, firstFlushes) = try FlushCount.counting { try publish.publish() }
        for id in 1...Int64(feeds) {
            try publish.write(id, [entry("f\(id)-new", title: "New entry", pubdate: 2_000)], now: 6_000)
        }
        let (changed, changedFlushes) = try FlushCount.counting { try publish.publish() }
        return (first, firstFlushes, changed, changedFlushes)
    }

    @Test func theFlushesOfAPublicationDoNotGrowWithItsFiles() throws {
        let small = try firstAndChanged(feeds: 2)
        let large = try firstAndChanged(feeds: 12)
        #expect(small.first.feedsWritten == 2 && large.first.feedsWritten == 12)
        #expect(large.changed.deltasWritten == 12 && large.changed.filesWritten > small.changed.filesWritten + 20)
        #expect(small.firstFlushes > 0, "the manifest is still flushed")
        #expect(large.firstFlushes == small.firstFlushes, "first publication: \(large.firstFlushes) for 12 feeds, \(small.firstFlushes) for 2")
        #expect(large.changedFlushes == small.changedFlushes, "every feed changed: \(large.changedFlushes) for 12 feeds, \(small.changedFlushes) for 2")
        #expect(large.firstFlushes < large.first.filesWritten)
    }

    @Test func everyFileTheManifestNamesIsMadeDurableBeforeTheManifestIsPut() throws {
        let publish = try PublishHarness()
        try publish.seed(feeds: 3, items: 2)
        let target = try MemoryTarget()
        var configuration = PublishConfiguration()
        configuration.outputDirectory = publish.outPath + "/never-created"
        for round in 0..<2 {
            if round == 1 { try publish.write(2, [entry("f2-new", pubdate: 2_000)], now: 6_000) }
            let before = target.events.count
            _ = try PublishRun(harness: publish.harness, configuration: configuration, target: target).run()
            let events = Array(target.events[before...])
            let manifestAt = try #require(events.firstIndex(of: .put("manifest.json")))
            let lastDurable = try #require(
                events[..<manifestAt].lastIndex(of: .madeDurable), "round \(round): nothing made durable before the manifest")
            // Snapshots, deltas, the record and the pointers.
            let versioned = events.enumerated().compactMap { index, event -> Int? in
                guard case .put(let name) = event, let published = PublishedName(fileName: name) else { return nil }
                if case .pointer = published { return index }
                return published.isImmutable ? index : nil
            }
            #expect(!versioned.isEmpty && versioned.allSatisfy { $0 < lastDurable }, "round \(round): \(events)")
            // The stable names put after the manifest are made durable too.
            let lastAlias = try #require(events.lastIndex {
                if case .put(let name) = $0, case .feed? = PublishedName(fileName: name) { true } else { false }
            })
            #expect(events[lastAlias...].contains(.madeDurable), "round \(round): \(events)")
        }
    }
}
