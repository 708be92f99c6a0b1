@testable import FeedmillClient
import Foundation
import Testing

/// The sync policy and scheduler (issue 54): defaults as the mobile design gives them, networks
/// the user refused, backoff after failures, the background budget as a deadline.
struct SyncScheduleTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func scheduler(_ path: NetworkPath = .assumed, policy: SyncPolicy = SyncPolicy(), random: Double = 0.5) -> SyncScheduler {
        SyncScheduler(policy: policy, network: FixedNetworkPath(path), random: { random })
    }

    @Test func theDefaultsAreFiveMinutesInUseADayInTheBackgroundAndThirtySecondsOfBudget() {
        let policy = SyncPolicy()
        #expect(policy.inUseInterval == .seconds(300))
        #expect(policy.backgroundInterval == .seconds(86_400))
        #expect(policy.backgroundBudget == .seconds(30))
        #expect(policy.allowsExpensive && !policy.allowsConstrained)
    }

    @Test func neverSyncedIsDueNowAndABackgroundSyncGetsTheBudgetAsItsDeadline() {
        let scheduler = Self.scheduler()
        #expect(scheduler.decide(.init(), activity: .inUse, now: Self.start) == .now(deadline: nil))
        #expect(scheduler.decide(.init(), activity: .background, now: Self.start) == .now(deadline: .seconds(30)))
    }

    @Test func afterASuccessTheNextIsOneIntervalLaterWithinTenPercentJitter() throws {
        let history = SyncScheduler.History().after(succeeded: true, at: Self.start)
        for (random, factor) in [(0.0, 0.9), (0.5, 1.0), (0.999_999, 1.2)] {
            let scheduler = Self.scheduler(random: random)
            guard case .at(let due) = scheduler.decide(history, activity: .inUse, now: Self.start) else {
                Issue.record("not a time")
                continue
            }
            #expect(abs(due.timeIntervalSince(Self.start) - 300 * factor) < 0.01 || factor == 1.2 && due.timeIntervalSince(Self.start) <= 330)
        }
        let scheduler = Self.scheduler()
        #expect(scheduler.decide(history, activity: .background, now: Self.start) == .at(Self.start.addingTimeInterval(86_400)))
        #expect(scheduler.decide(history, activity: .inUse, now: Self.start.addingTimeInterval(301)) == .now(deadline: nil))
    }

    @Test func failuresInARowWaitThirtySecondsDoublingUpToTheInterval() {
        let scheduler = Self.scheduler()
        var history = SyncScheduler.History().after(succeeded: true, at: Self.start)
        var waits: [Double] = []
        for attempt in 1...6 {
            let end = Self.start.addingTimeInterval(Double(attempt) * 1000)
            history = history.after(nil, at: end)
            guard case .at(let due) = scheduler.decide(history, activity: .inUse, now: end) else { continue }
            waits.append(due.timeIntervalSince(end))
        }
        #expect(waits == [30, 60, 120, 240, 300, 300])
        history = history.after(succeeded: true, at: Self.start.addingTimeInterval(9000))
        #expect(history.failuresInARow == 0)
    }

    @Test func aDeadlineOrProblemsCountAsAFailure() {
        var stopped = SyncReport()
        stopped.outcome = .deadline
        #expect(SyncScheduler.History().after(stopped, at: Self.start).failuresInARow == 1)
        #expect(SyncScheduler.History().after(SyncReport(), at: Self.start).failuresInARow == 0)
    }

    @Test func aNetworkThePolicyRefusesIsWaitedOut() {
        let expensive = NetworkPath(isAvailable: true, isExpensive: true)
        let constrained = NetworkPath(isAvailable: true, isConstrained: true)
        #expect(Self.scheduler(expensive).decide(.init(), activity: .inUse, now: Self.start) == .now(deadline: nil))
        guard case .waitForNetwork(let why) = Self.scheduler(constrained).decide(.init(), activity: .inUse, now: Self.start) else {
            Issue.record("a constrained network is refused by default")
            return
        }
        #expect(why.contains("constrained"))
        let strict = SyncPolicy(allowsExpensive: false)
        #expect(Self.scheduler(expensive, policy: strict).decide(.init(), activity: .background, now: Self.start) != .now(deadline: .seconds(30)))
        guard case .waitForNetwork = Self.scheduler(NetworkPath(isAvailable: false)).decide(.init(), activity: .inUse, now: Self.start) else {
            Issue.record("no network: wait")
            return
        }
    }
}
