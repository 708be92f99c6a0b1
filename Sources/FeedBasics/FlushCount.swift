import Synchronization

/// The disk flushes (`fsync`, `syncfs`) ``DurableFiles`` asks for while ``counting(_:)`` runs,
/// in that task only: how a test shows that what a publication pays for durability does not
/// grow with the number of files it writes, however many other tests flush at the same time.
/// SQLite's own flushes are not counted: snapshots are written with them turned off.
public final class FlushCount: Sendable {
    @TaskLocal private static var current: FlushCount?
    private let flushes = Mutex(0)

    /// The flushes `body` asked for, with what it returned.
    public static func counting<Result>(_ body: () throws -> Result) rethrows -> (result: Result, flushes: Int) {
        let count = FlushCount()
        let result = try $current.withValue(count) { try body() }
        return (result, count.flushes.withLock { $0 })
    }

    /// Called by every flush ``DurableFiles`` makes.
    static func record() {
        current?.flushes.withLock { $0 += 1 }
    }
}
