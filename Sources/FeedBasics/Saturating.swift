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
