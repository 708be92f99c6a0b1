import PipelineTestSupport
import FeedFetching
import FeedModel
import FeedPipeline
import FeedStorage
import Testing

@Suite("Scheduling: which feeds are due, in what order")
struct ScheduleTests {
    let now: Int64 = 1_700_000_000  // a Tuesday, 22:13 UTC
    var configuration: PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.staleAfter = 3600
        return configuration
    }

    private func feed(_ id: Int64, age: Int64?, _ adjust: (inout FetchState) -> Void = { _ in }) -> CatalogFeed {
        var state = FetchState()
        adjust(&state)
        return CatalogFeed(feedID: id, url: "https://e.com/\(id)", lastUpdate: age.map { now - $0 }, state: state)
    }

    @Test func neverUpdatedFirstThenOldestFirst() {
        let feeds = [feed(1, age: 7200), feed(2, age: nil), feed(3, age: 86_400), feed(4, age: 60), feed(5, age: nil)]
        let due = UpdateSchedule.select(feeds, .due(limit: nil), now: now, configuration: configuration)
        #expect(due.map(\.feedID) == [2, 5, 3, 1])
    }

    @Test func aFeedWhoseDatabaseIsGoneIsDueAtOnceUnlessGoneOrWaiting() {
        let feeds = [
            feed(1, age: 60), feed(2, age: 60), feed(3, age: 60) { $0.gone = true },
            feed(4, age: 60) { $0.nextAttempt = 1_700_000_100 }, feed(5, age: 7200),
        ]
        let due = UpdateSchedule.select(feeds, .due(limit: nil), now: now, configuration: configuration, withoutDatabase: [2, 3, 4])
        #expect(due.map(\.feedID) == [2, 5], "refetched first, like a feed never updated")
        #expect(UpdateSchedule.select(feeds, .due(limit: nil), now: now, configuration: configuration).map(\.feedID) == [5])
    }

    @Test func theLimitCutsTheOrderedList() {
        let feeds = [feed(1, age: 7200), feed(2, age: nil), feed(3, age: 86_400)]
        #expect(UpdateSchedule.select(feeds, .due(limit: 2), now: now, configuration: configuration).map(\.feedID) == [2, 3])
        #expect(UpdateSchedule.select(feeds, .due(limit: 0), now: now, configuration: configuration).isEmpty)
    }

    @Test func backoffRetryAfterAndGoneAreSkippedUntilDue() {
        let feeds = [
            feed(1, age: 7200) { $0.nextAttempt = 1_700_000_100 },
            feed(2, age: 7200) { $0.nextAttempt = 1_699_999_000 },
            feed(3, age: 7200) { $0.gone = true },
        ]
        #expect(UpdateSchedule.select(feeds, .due(limit: nil), now: now, configuration: configuration).map(\.feedID) == [2])
    }

    @Test("a feed's hints stretch its interval up to a day", arguments: [
        (nil, 3_700, true),  // no hint: stale after an hour
        (7_200, 3_700, false),  // asks for 2 h
        (7_200, 7_300, true),
        (60, 3_700, true),  // asks for less than stale-after: stale-after wins
        (31_536_000, 80_000, false),  // asks for a year…
        (31_536_000, 86_500, true),  // …but is checked daily
    ] as [(Int?, Int64, Bool)])
    func hints(hint: Int?, age: Int64, due: Bool) {
        let subject = feed(1, age: age) { $0.hintInterval = hint }
        #expect(UpdateSchedule.isDue(subject, now: now, configuration: configuration) == due)
    }

    @Test func skipHoursAndDaysAreHonouredForADayAtMost() {
        // 1_700_000_000 is Tuesday 2023-11-14 22:13:20 UTC.
        #expect(!UpdateSchedule.isDue(feed(1, age: 7200) { $0.skipHours = [22] }, now: now, configuration: configuration))
        #expect(UpdateSchedule.isDue(feed(1, age: 7200) { $0.skipHours = [21, 23] }, now: now, configuration: configuration))
        #expect(!UpdateSchedule.isDue(feed(1, age: 7200) { $0.skipDays = ["tuesday"] }, now: now, configuration: configuration))
        #expect(UpdateSchedule.isDue(feed(1, age: 90_000) { $0.skipDays = ["Tuesday"] }, now: now, configuration: configuration))
    }

    /// What a run takes from the catalog in one pass: each chosen feed with its fetch's host,
    /// in the order of the choice, the limit cutting across feeds never updated and stale ones.
    @Test func thePlanCarriesEachChosenFeedsHostInOrder() {
        func onHost(_ id: Int64, _ host: String, age: Int64?) -> CatalogFeed {
            CatalogFeed(feedID: id, url: "https://\(host)/feed/\(id)", lastUpdate: age.map { now - $0 }, state: FetchState())
        }
        let feeds = [
            onHost(4, "b.example", age: 7200), onHost(3, "A.example", age: nil), onHost(1, "b.example", age: nil),
            onHost(2, "c.example", age: 86_400), onHost(5, "a.example", age: 60),
        ]
        func plan(_ selection: FeedSelection) -> UpdateSchedule.Plan {
            var choice = UpdateSchedule.Choice(selection, now: now, configuration: configuration)
            for feed in feeds { choice.consider(feed) }
            return choice.plan()
        }
        #expect(plan(.due(limit: nil)) == .init(feedIDs: [1, 3, 2, 4], hosts: ["b.example", "a.example", "c.example", "b.example"]))
        #expect(plan(.due(limit: 3)) == .init(feedIDs: [1, 3, 2], hosts: ["b.example", "a.example", "c.example"]))
        #expect(plan(.due(limit: 1)) == .init(feedIDs: [1], hosts: ["b.example"]))
        #expect(plan(.all).feedIDs == [1, 2, 3, 4, 5])
        #expect(plan(.all).hosts == ["b.example", "c.example", "a.example", "b.example", "a.example"])
        #expect(plan(.feeds([5, 2, 5, 99])) == .init(feedIDs: [5, 2], hosts: ["a.example", "c.example"]))
    }

    @Test func namedFeedsAreUpdatedWhateverTheirSchedule() {
        let feeds = [feed(1, age: 10) { $0.gone = true }, feed(2, age: 10) { $0.nextAttempt = 1_800_000_000 }, feed(3, age: 10)]
        #expect(UpdateSchedule.select(feeds, .feeds([2, 1, 2, 99]), now: now, configuration: configuration).map(\.feedID) == [2, 1])
        #expect(UpdateSchedule.select(feeds, .all, now: now, configuration: configuration).map(\.feedID) == [2, 3])
    }
}

@Suite("Backoff and poll hints")
struct BackoffTests {
    @Test func theDelayDoublesUpToTheCapWithBoundedJitter() {
        for failures in 1...12 {
            let raw = min(86_400.0, 900.0 * Double(1 << (failures - 1)))
            let delay = Double(Backoff.delay(feedID: 7, consecutiveFailures: failures, base: 900, cap: 86_400))
            #expect(delay >= raw * 0.8 && delay < raw * 1.2, "failure \(failures): \(delay) vs \(raw)")
        }
    }

    @Test func theJitterIsDeterministicAndDiffersBetweenFeeds() {
        let a = Backoff.delay(feedID: 1, consecutiveFailures: 3, base: 900, cap: 86_400)
        #expect(a == Backoff.delay(feedID: 1, consecutiveFailures: 3, base: 900, cap: 86_400))
        let others = (2...20).map { Backoff.delay(feedID: $0, consecutiveFailures: 3, base: 900, cap: 86_400) }
        #expect(Set(others + [a]).count > 10)
    }

    @Test("poll hints: the longest request wins", arguments: [
        (SchedulingHints(ttlMinutes: 60), nil, nil, 3600),
        (SchedulingHints(updatePeriod: "daily", updateFrequency: 2), nil, nil, 43_200),
        (SchedulingHints(updatePeriod: "hourly"), "max-age=7200, public", nil, 7200),
        (SchedulingHints(), "no-cache", nil, nil),
        (SchedulingHints(ttlMinutes: 5), nil, "Tue, 21 Apr 2009 23:32:00 GMT", 3600),
    ] as [(SchedulingHints, String?, String?, Int?)])
    func pollHints(hints: SchedulingHints, cacheControl: String?, expires: String?, expected: Int?) {
        var response = FetchResponse(requestedURL: "u", finalURL: "u", status: 200)
        response.cacheControl = cacheControl
        response.expires = expires
        response.date = expires == nil ? nil : "Tue, 21 Apr 2009 22:32:00 GMT"
        #expect(PollHints.interval(hints, response: response) == expected)
    }
}
