/// Arithmetic on times and counts that clamps at the ends of the type instead of trapping.
///
/// Times and counts come from stored values, feeds, headers and `--now`, any of which can hold
/// the largest integer: one `last_update` of 9223372036854775807 made every later
/// `rss-feeds list` trap on an overflow. Scheduling adds, subtracts and multiplies through
/// these, so the worst a wild value can do is to be read as "as late (or early) as can be".
extension FixedWidthInteger where Self: SignedInteger {
    public func saturatingAdd(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    public func saturatingSubtract(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other > 0 ? .min : .max
    }

    public func saturatingMultiply(_ other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}

extension FixedWidthInteger {
    /// `value` rounded toward zero, clamped to the type's range (NaN is 0) instead of trapping.
    ///
    /// Durations arrive as seconds in a `Double` and leave as milliseconds or counts in an
    /// integer: `Int64(seconds * 1000)` traps once the product passes `Int64.max`, which
    /// `--deadline 9223372036854775807s` did. A duration that long is "never" either way.
    public init<Source: BinaryFloatingPoint>(saturating value: Source) {
        if value.isNaN {
            self = 0
        } else if value >= Source(Self.max) {
            // Source(Self.max) may round up (2^63 for Int64), so `>=` leaves only values that fit.
            self = .max
        } else if value <= Source(Self.min) {
            self = .min
        } else {
            self.init(value)
        }
    }
}
