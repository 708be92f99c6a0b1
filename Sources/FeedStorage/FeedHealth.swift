import FeedModel

/// One feed's health as the catalog records it, in the few states an operator and an alert
/// speak of. Why a type of its own: the health page (`index.html`) and the metrics
/// (`feedmill_feeds{state=…}`) must count the same feeds the same way, so both read a feed's
/// state here and nowhere else.
public struct FeedHealth: Sendable, Equatable {
    /// The stable names (metrics labels, the page's words); never rename one.
    public enum State: String, Sendable, CaseIterable {
        /// The last attempt failed (``FeedHealth/failureKind`` says why); the feed is retried.
        case failing
        /// The publisher answered `410 Gone`.
        case gone
        /// Listed, never attempted yet.
        case neverFetched = "never-fetched"
        /// The last attempt succeeded (a `304 Not Modified` counts).
        case ok

        /// The one decision of a feed's state, from the `fetch_state` values it rests on (for
        /// a reader of those columns alone, as the metrics are): gone when the feed answered
        /// 410; failing when a failure kind is recorded or the streak is above 0; never
        /// fetched when it was neither attempted nor ever succeeded; ok otherwise.
        public static func of(gone: Bool, consecutiveErrors: Int, lastErrorKind: FailureKind?, lastAttempt: Int64?, lastSuccess: Int64?) -> State {
            if gone { return .gone }
            if lastErrorKind != nil || consecutiveErrors > 0 { return .failing }
            if lastAttempt == nil && lastSuccess == nil { return .neverFetched }
            return .ok
        }

        /// Its place in the attention order (its place in ``allCases``).
        var rank: Int {
            switch self {
            case .failing: 0
            case .gone: 1
            case .neverFetched: 2
            case .ok: 3
            }
        }
    }

    public let feedID: Int64
    public let state: State
    /// Why the last attempt failed: set for `failing` and `gone`, nil otherwise.
    public let failureKind: FailureKind?
    /// Failed attempts in a row (`fetch_state.consecutive_errors`); 0 when the last one succeeded.
    public let streak: Int
    /// The last failure's message as recorded (may hold several lines, or anything a server sent).
    public let lastError: String?
    public let lastAttempt: Int64?
    /// Not before this time (backoff, `Retry-After`); nil or past: due at the next run.
    public let nextAttempt: Int64?
    public let lastSuccess: Int64?

    public init(_ feed: CatalogFeed) {
        let state = feed.state
        self.init(
            feedID: feed.feedID, gone: state.gone, consecutiveErrors: state.consecutiveErrors, lastErrorKind: state.lastErrorKind,
            lastError: { state.lastError }, lastAttempt: state.lastAttempt, nextAttempt: state.nextAttempt,
            lastSuccess: state.lastSuccess, lastUpdate: feed.lastUpdate)
    }

    /// From the `fetch_state` values a feed's health rests on; `lastError` is read only for a
    /// feed failing or gone (the message of a feed now ok is not shown).
    init(
        feedID: Int64, gone: Bool, consecutiveErrors: Int, lastErrorKind: FailureKind?, lastError: () -> String?,
        lastAttempt: Int64?, nextAttempt: Int64?, lastSuccess: Int64?, lastUpdate: Int64?
    ) {
        self.feedID = feedID
        streak = consecutiveErrors
        self.lastAttempt = lastAttempt
        self.nextAttempt = nextAttempt
        // `last_update` too: a catalog from before `fetch_state` has only that.
        self.lastSuccess = lastSuccess ?? lastUpdate
        state = State.of(
            gone: gone, consecutiveErrors: consecutiveErrors, lastErrorKind: lastErrorKind, lastAttempt: lastAttempt,
            lastSuccess: self.lastSuccess)
        switch state {
        case .gone:
            failureKind = lastErrorKind ?? .gone
            self.lastError = lastError()
        case .failing:
            // A streak with no kind recorded (a catalog edited by hand) counts as the catalog
            // reads a kind it does not know.
            failureKind = lastErrorKind ?? .storage
            self.lastError = lastError()
        case .neverFetched, .ok:
            failureKind = nil
            self.lastError = nil
        }
    }

    /// The order a person reads feeds in: failing first, the longest streak first (then the
    /// oldest last success, a feed that never succeeded first), then gone, never fetched, ok;
    /// feedid last, so the order is total and the page deterministic.
    public static func attentionOrder(_ a: FeedHealth, _ b: FeedHealth) -> Bool {
        if a.state.rank != b.state.rank { return a.state.rank < b.state.rank }
        if a.state == .failing {
            if a.streak != b.streak { return a.streak > b.streak }
            if a.lastSuccess != b.lastSuccess {
                // Never succeeded before any time, Int64.min included (as `?? .min`, the two
                // were neither before the other, and the order depended on the input's).
                guard let first = a.lastSuccess else { return true }
                guard let second = b.lastSuccess else { return false }
                return first < second
            }
        }
        return a.feedID < b.feedID
    }
}

/// Every feed's ``FeedHealth`` as far as a page reads it, and the counts built on them: what
/// the health page shows and the metrics export, computed once from the catalog's rows.
///
/// Why not every feed: at a million feeds, making each ok feed's ``FeedHealth`` was most of
/// the reading, and the page lists at most a few hundred of them (issue 51). Every feed that is
/// not ok is kept (the page's failing table and the counts need them); ok feeds only as far as
/// `listing` asks; every feed is counted, and its last success kept for the age chart.
public struct FeedHealthSummary: Sendable, Equatable {
    /// In ``FeedHealth/attentionOrder(_:_:)``: every feed not ok, then the first ok ones
    /// (by feedid), at most `listing` of them.
    public let feeds: [FeedHealth]
    /// Every feed counted, ok or not.
    public let feedCount: Int
    /// Every feed's last success that has one (each feed once, in no given order): what the age
    /// chart is drawn from.
    public let lastSuccesses: [Int64]
    /// Feeds per state, in ``FeedHealth/State/allCases`` order, 0 included.
    public let byState: [(state: FeedHealth.State, count: Int)]
    /// Feeds in state `failing` per failure kind, in ``FailureKind/allCases`` order, 0 included
    /// (a gone feed counts under `gone` in ``byState`` only).
    public let failingByKind: [(kind: FailureKind, count: Int)]
    /// The oldest last success among feeds that are failing or ok: how stale the least fresh
    /// live feed is (gone feeds are left out: they will not come back). Nil when none has one.
    public let oldestSuccess: Int64?

    /// The ok feeds kept when no number is asked for: every one.
    public static let everyFeed = Int.max

    public init(_ catalogFeeds: [CatalogFeed], listing: Int = everyFeed) {
        self.init(health: catalogFeeds.map(FeedHealth.init), listing: listing)
    }

    /// From each feed's health, in any order (in feedid order, only the failing feeds are
    /// sorted: the others' attention order is by state, then feedid).
    public init(health: [FeedHealth], listing: Int = everyFeed) {
        self.init(attentionOrdered: Self.attentionOrdered(health), listing: listing)
    }

    /// From feeds already in ``FeedHealth/attentionOrder(_:_:)``.
    init(attentionOrdered feeds: [FeedHealth], listing: Int = everyFeed) {
        var tally = FeedStateTally()
        var lastSuccesses: [Int64] = []
        lastSuccesses.reserveCapacity(feeds.count)
        for feed in feeds {
            tally.add(feed.state, kind: feed.failureKind, lastSuccess: feed.lastSuccess)
            if let success = feed.lastSuccess { lastSuccesses.append(success) }
        }
        let notOK = feeds.prefix { $0.state != .ok }.count
        let kept = Swift.min(feeds.count, notOK + Swift.max(0, Swift.min(listing, feeds.count - notOK)))
        self.init(leading: Array(feeds.prefix(kept)), feedCount: feeds.count, lastSuccesses: lastSuccesses, tally: tally)
    }

    /// From the feeds kept (in attention order), the count of all, their last successes and
    /// the tally of all.
    init(leading: [FeedHealth], feedCount: Int, lastSuccesses: [Int64], tally: FeedStateTally) {
        feeds = leading
        self.feedCount = feedCount
        self.lastSuccesses = lastSuccesses
        byState = FeedHealth.State.allCases.map { ($0, tally.byState[$0] ?? 0) }
        failingByKind = FailureKind.allCases.map { ($0, tally.failingByKind[$0] ?? 0) }
        oldestSuccess = tally.oldestSuccess
    }
    private static func attentionOrdered(_ health: [FeedHealth]) -> [FeedHealth] {
        guard zip(health, health.dropFirst()).allSatisfy({ $0.feedID < $1.feedID }) else {
            return health.sorted(by: FeedHealth.attentionOrder)
        }
        var ordering = AttentionOrdering()
        for feed in health { ordering.add(feed) }
        return ordering.ordered()
    }

    /// Feeds given in feedid order, put in ``FeedHealth/attentionOrder(_:_:)`` as they come:
    /// each in its state's place, only the failing ones sorted at the end (the others' order is
    /// by state, then feedid). Why not collect, then order: at a million feeds, a second array
    /// and a pass per state were a large part of a publication's health page (issue 51).
    struct AttentionOrdering {
        private var byState = [[FeedHealth]](repeating: [], count: FeedHealth.State.allCases.count)

        init() {}

        mutating func add(_ feed: FeedHealth) {
            byState[feed.state.rank].append(feed)
        }

        /// Every feed added, in attention order; leaves the ordering empty. Mutating, not
        /// consuming: a consumed copy would share its arrays, and the last state's feeds (ok:
        /// most of a catalog), moved behind the others here, would be copied instead.
        mutating func ordered() -> [FeedHealth] {
            byState[FeedHealth.State.failing.rank].sort(by: FeedHealth.attentionOrder)
            var ordered = byState.removeLast()
            ordered.insert(contentsOf: byState.joined(), at: 0)
            byState = [[FeedHealth]](repeating: [], count: FeedHealth.State.allCases.count)
            return ordered
        }
    }

    /// Feeds in `state` (0 when none), for a headline such as the page's "(60 failing)".
    public func count(_ state: FeedHealth.State) -> Int {
        byState.first { $0.state == state }?.count ?? 0
    }

    /// Equal when the feeds kept, the counts, the oldest success and the last successes (in
    /// any order) are (the counts, as arrays of tuples, cannot be compared by themselves).
    public static func == (a: Self, b: Self) -> Bool {
        a.feeds == b.feeds && a.feedCount == b.feedCount && a.oldestSuccess == b.oldestSuccess
            && a.byState.map(\.count) == b.byState.map(\.count) && a.failingByKind.map(\.count) == b.failingByKind.map(\.count)
            && a.lastSuccesses.sorted() == b.lastSuccesses.sorted()
    }
}

/// Feeds by state, failing feeds by kind, and the oldest last success of a live feed: the one
/// count the health page (from whole records) and the metrics (from a few columns, for speed)
/// both show, so the two cannot say different numbers for one catalog.
public struct FeedStateTally: Sendable, Equatable {
    public private(set) var byState: [FeedHealth.State: Int] = [:]
    /// Failing feeds only; a failure without its kind counts as `storage`, as the catalog
    /// reads a kind it does not know.
    public private(set) var failingByKind: [FailureKind: Int] = [:]
    /// Among failing and ok feeds (gone feeds will not come back); nil while none succeeded.
    public private(set) var oldestSuccess: Int64?

    public init() {}

    public mutating func add(_ state: FeedHealth.State, kind: FailureKind?, lastSuccess: Int64?) {
        byState[state, default: 0] += 1
        if state == .failing { failingByKind[kind ?? .storage, default: 0] += 1 }
        if state == .failing || state == .ok, let lastSuccess { oldestSuccess = Swift.min(oldestSuccess ?? lastSuccess, lastSuccess) }
    }

    /// `count` ok feeds at once, the oldest of their last successes `oldestSuccess`: what
    /// ``add(_:kind:lastSuccess:)`` for each would give, without a dictionary update per feed.
    mutating func addOK(count: Int, oldestSuccess oldest: Int64?) {
        guard count > 0 else { return }
        byState[.ok, default: 0] += count
        if let oldest { oldestSuccess = Swift.min(oldestSuccess ?? oldest, oldest) }
    }
}

extension Catalog {
    /// Every feed's health, read in one pass over the catalog.
    public func health() throws(StorageError) -> FeedHealthSummary {
        FeedHealthSummary(try feeds())
    }
}
