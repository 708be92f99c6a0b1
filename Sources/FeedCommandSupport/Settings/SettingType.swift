/// How one kind of setting value is read from text (the environment and the file hold text),
/// checked wherever it came from (a typed command-line value too), and written back as the
/// file would take it (`--print-config`, the generated documentation).
public struct SettingType<Value: Sendable>: Sendable {
    /// What a value must be, as error messages and the settings table say it.
    public let expected: String
    let read: @Sendable (String) -> Value?
    /// What is wrong with a well-typed value (out of range, say), as the expectation to state.
    let problem: @Sendable (Value) -> String?
    /// `nil`: unset.
    let write: @Sendable (Value) -> String?

    init(
        expected: String, read: @escaping @Sendable (String) -> Value?, problem: @escaping @Sendable (Value) -> String? = { _ in nil },
        write: @escaping @Sendable (Value) -> String?
    ) {
        self.expected = expected
        self.read = read
        self.problem = problem
        self.write = write
    }
}

extension SettingType {
    /// The same values, or unset (`nil`, the default of a setting that has none).
    var orUnset: SettingType<Value?> {
        SettingType<Value?>(
            expected: expected, read: { text in read(text).map { .some($0) } }, problem: { $0.flatMap(problem) },
            write: { $0.flatMap(write) })
    }
}

extension SettingType where Value == Int {
    static func wholeNumber(in range: ClosedRange<Int>) -> Self {
        let expected = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        return Self(expected: expected, read: { Int($0) }, problem: { range.contains($0) ? nil : expected }, write: { String($0) })
    }
}

extension SettingType where Value == Double {
    /// A number above 0 and at most `limit`: a bound so large a value cannot mean what it
    /// says (a fetch may not take 10^300 seconds) is refused, not taken as "no limit".
    static func positiveNumber(atMost limit: Double) -> Self {
        let expected = "a positive number up to \(Int(limit))"
        return Self(
            expected: expected, read: { Double($0) }, problem: { $0 > 0 && $0 <= limit ? nil : expected },
            write: { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int($0)) : String($0) })
    }
}

extension SettingType where Value == Bool {
    static var flag: Self {
        Self(
        expected: "true or false",
        read: { text in
            switch text.lowercased() {
            case "true", "1", "yes", "on": return true
            case "false", "0", "no", "off": return false
            default: return nil
            }
        },
        write: { $0 ? "true" : "false" })
    }
}

extension SettingType where Value == Seconds {
    /// A duration from 0 to ``Seconds/longest``: the parser takes anything an `Int` holds, but
    /// `--deadline 9223372036854775807s` is a typo, not a plan, and such a count has no
    /// millisecond or instant to become. Refused here, it is a usage error naming the limit.
    static var duration: Self {
        let expected = "a duration such as 90s, 15m, 1h or 2d, at most \(Seconds.longest.text) (10 years)"
        return Self(
            expected: expected, read: { Seconds(argument: $0) }, problem: { $0.value <= Seconds.longest.value ? nil : expected },
            write: { $0.text })
    }
}

extension SettingType where Value == String {
    static var text: Self { Self(expected: "text", read: { $0 }, write: { $0 }) }

    /// Text that must pass `accepts`, else "expected `expected`".
    static func text(_ expected: String, accepts: @escaping @Sendable (String) -> Bool) -> Self {
        Self(expected: expected, read: { $0 }, problem: { accepts($0) ? nil : expected }, write: { $0 })
    }
}

extension SettingType where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
    /// One of an enumeration's cases, by name: `text or json`.
    static var choice: Self {
        Self(expected: Value.allCases.map(\.rawValue).joined(separator: " or "), read: { Value(rawValue: $0) }, write: { $0.rawValue })
    }
}
