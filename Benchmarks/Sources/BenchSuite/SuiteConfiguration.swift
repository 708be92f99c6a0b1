import Benchmark

/// What every suite measures, and how long it runs.
///
/// Benchmark names have no spaces or slashes: the framework (1.38.1) writes a threshold file
/// under the name with those replaced and reads it back under the name as it is.
///
/// Malloc counts are the same on every run of the same build: they are what CI checks against
/// the stored thresholds (Thresholds/, `Scripts/bench/run check`), with a small allowance for
/// the odd allocation a library makes lazily. Wall clock and throughput depend on the machine
/// and its load: they are reported, never checked. Instruction counts need hardware
/// performance counters, which a virtual machine often lacks; they are asked for where
/// `FEEDMILL_BENCH_INSTRUCTIONS` is set.
public enum SuiteConfiguration {
    /// `FEEDMILL_BENCH_QUICK` (set by the CI check) runs each benchmark a few times only:
    /// the counts it checks do not change from one iteration to the next.
    public static let quick = Environment.flag("FEEDMILL_BENCH_QUICK")

    /// In quick runs malloc counts only: they are all the thresholds hold and all CI checks.
    public static var metrics: [BenchmarkMetric] {
        if quick { return [.mallocCountTotal] }
        var metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]
        if Environment.flag("FEEDMILL_BENCH_INSTRUCTIONS") { metrics.append(.instructions) }
        return metrics
    }

    /// The tolerance the check allows on malloc counts: 1% of the stored count.
    public static var thresholds: [BenchmarkMetric: BenchmarkThresholds] {
        [.mallocCountTotal: BenchmarkThresholds(relative: [.p90: 1.0])]
    }

    public static func apply() {
        Benchmark.defaultConfiguration = .init(
            metrics: metrics,
            timeUnits: .microseconds,
            warmupIterations: 1,
            scalingFactor: .one,
            maxDuration: quick ? .seconds(1) : .seconds(5),
            maxIterations: quick ? 3 : 30,
            thresholds: thresholds
        )
    }
}
