import Foundation

/// SplitMix64: reproducible random sequences for property tests.
///
/// Every randomised test draws from one of these and prints its seed, so a failure seen once
/// can be replayed with `FEEDMILL_TEST_SEED=<seed> swift test --filter <test>`.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    /// The seed this sequence started from.
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from `FEEDMILL_TEST_SEED` when set, else from a fresh random seed;
    /// prints the seed with the test's name either way.
    public static func announced(_ test: String = #function) -> SeededGenerator {
        let seed = UInt64(ProcessInfo.processInfo.environment["FEEDMILL_TEST_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): seed \(seed) (FEEDMILL_TEST_SEED=\(seed) repeats it)")
        return SeededGenerator(seed: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
