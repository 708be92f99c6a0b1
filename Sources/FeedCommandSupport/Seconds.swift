import ArgumentParser

/// `90`, `90s`, `15m`, `1h`, `2d` as seconds (for `--stale-after` and `--deadline`).
public struct Seconds: ExpressibleByArgument, Sendable, Equatable {
    public var value: Int

    /// The longest duration a setting takes (`stale-after`, `deadline`): 10 years, 3650d. A
    /// feed due less often than that is never due, a run longer than that has no deadline.
    public static let longest = Seconds(315_360_000)

    public init(_ value: Int) {
        self.value = value
    }

    public init?(argument: String) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = argument.lowercased()
        var multiplier = 1
        if let last = text.last, let unit = units[last] {
            multiplier = unit
            text.removeLast()
        }
        // A count of days too large for an Int is not a duration, not a trap.
        guard let number = Int(text), number >= 0 else { return nil }
        let (seconds, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        value = seconds
    }

    public var defaultValueDescription: String { text }

    /// In the largest unit that divides it: `3600` is `1h`, `90` is `90s`.
    public var text: String {
        for (unit, size) in [("d", 86_400), ("h", 3600), ("m", 60)] where value > 0 && value % size == 0 {
            return "\(value / size)\(unit)"
        }
        return "\(value)s"
    }
}

extension Seconds {
    /// For `@Option(transform:)`: a duration that cannot be read is refused with what a
    /// duration is (`The value '-5m' is invalid for '--deadline <duration>': expected …`),
    /// where ArgumentParser alone would only say the value is invalid.
    public static func argument(_ text: String) throws -> Seconds {
        guard let seconds = Seconds(argument: text) else {
            throw SecondsArgumentError(text: text)
        }
        return seconds
    }
}

/// A duration ``Seconds/argument(_:)`` could not read, as ArgumentParser prints it.
public struct SecondsArgumentError: Error, CustomStringConvertible {
    public let text: String
    public var description: String {
        "expected a duration such as 90s, 15m, 1h or 2d (a whole number of seconds, minutes, hours or days, not negative)"
    }
}
