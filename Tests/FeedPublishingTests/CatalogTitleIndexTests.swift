@testable import FeedPublishing
import TestSupport
import Testing

/// The title index's runs and groups are cut where the titles say (issue 51): titles sharing
/// any prefix are spread over bounded runs, and a title added changes only the runs of its
/// stretch between two cut marks.
@Suite("Publication: the title index's runs")
struct CatalogTitleIndexTests {
    private func titles(_ ids: some Sequence<Int64>) -> [CatalogTitle] {
        ids.map { CatalogTitle(key: "synthetic feed \($0)", feedID: $0, title: "Synthetic feed \($0)") }.sorted(by: CatalogTitleIndex.precedes)
    }

    @Test func titlesSharingAPrefixAreCutIntoBoundedRunsAndGroups() {
        let all = titles(1...30_000)
        let (runs, groups) = CatalogTitleIndex.cut(all)
        #expect(runs.first?.lowerBound == 0 && runs.last?.upperBound == all.count)
        #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "runs are consecutive")
        #expect(runs.allSatisfy { !$0.isEmpty && $0.count <= CatalogTitleIndex.runLimit })
        #expect(runs.count >= 15 && runs.count <= 60, "\(runs.count) runs: about one per 1,024 titles")
        #expect(groups.first?.lowerBound == 0 && groups.last?.upperBound == runs.count)
        #expect(groups.allSatisfy { !$0.isEmpty && $0.count <= CatalogTitleIndex.groupLimit })
        #expect(CatalogTitleIndex.cut([]).runs.isEmpty && CatalogTitleIndex.cut(titles([7])).runs == [0..<1])
    }

    @Test func aTitleAddedChangesOnlyTheRunsOfItsStretch() {
        var random = SeededGenerator.announced()
        let before = titles(stride(from: 2, through: 40_000, by: 2))
        let (runsBefore, _) = CatalogTitleIndex.cut(before)
        for _ in 0..<20 {
            let added = Int64.random(in: 0...20_000, using: &random) * 2 + 1
            let after = before + titles([added])
            let sorted = after.sorted(by: CatalogTitleIndex.precedes)
            let (runsAfter, _) = CatalogTitleIndex.cut(sorted)
            let old = Set(runsBefore.map { before[$0].map(\.feedID) })
            let changed = runsAfter.filter { !old.contains(sorted[$0].map(\.feedID)) }
            // The stretch holding the new title: from the title after the last cut mark before
            // it to the next cut mark; it is cut at every 2,048 titles, and only its runs change.
            let position = sorted.firstIndex { $0.feedID == added }!
            let marked = sorted.indices.filter { CatalogTitleIndex.mark(sorted[$0]) % CatalogTitleIndex.runMean == 0 }
            let start = (marked.last { $0 < position } ?? -1) + 1
            let end = marked.first { $0 >= position } ?? sorted.count - 1
            let stretch = (end - start + CatalogTitleIndex.runLimit) / CatalogTitleIndex.runLimit
            #expect(!changed.isEmpty && changed.count <= stretch, "title \(added): \(changed.count) runs changed, its stretch has \(stretch)")
            #expect(changed.allSatisfy { $0.lowerBound >= start && $0.upperBound <= end + 1 }, "title \(added): a run outside its stretch changed")
        }
    }
}
