import FeedBasics

/// The form nearly every RSS feed writes, `Sun, 06 Nov 1994 08:49:37 GMT` (or a numeric zone,
/// `UT`/`UTC`/`Z`, no day name, a one-digit day), read by position without allocating.
///
/// Anything else returns `nil` and goes to ``LooseDateReader``, which reads the same form
/// the same way but by token: it cost ~10,000 instructions a date, 5% of the parse profile.
enum RFC1123Reader {
    static func read(_ bytes: [UInt8]) -> Int64? {
        bytes.withUnsafeBufferPointer { read($0) }
    }

    private static func read(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        if b.count > 5, b[3] == UInt8(ascii: ","), b[4] == 0x20 {
            guard isDayName(b[0], b[1], b[2]) else { return nil }
            i = 5
        }
        guard let day = digits(b, &i, min: 1, max: 2), space(b, &i),
            i + 3 <= b.count, let month = month(b[i], b[i + 1], b[i + 2])
        else { return nil }
        i += 3
        guard space(b, &i), let year = digits(b, &i, min: 4, max: 4), space(b, &i),
            let hour = digits(b, &i, min: 2, max: 2), colon(b, &i), let minute = digits(b, &i, min: 2, max: 2),
            colon(b, &i), let second = digits(b, &i, min: 2, max: 2), space(b, &i),
            let offset = zone(b, from: i)
        else { return nil }
        return FeedDate.epochSeconds(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
    }

    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, min: Int, max: Int) -> Int? {
        var value = 0, count = 0
        while i < b.count, count < max, b[i].isASCIIDigit {
            value = value * 10 + Int(b[i] - 0x30)
            i += 1
            count += 1
        }
        guard count >= min, i >= b.count || !b[i].isASCIIDigit else { return nil }
        return value
    }

    private static func space(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        guard i < b.count, b[i] == 0x20 else { return false }
        i += 1
        return true
    }

    private static func colon(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
        guard i < b.count, b[i] == UInt8(ascii: ":") else { return false }
        i += 1
        return true
    }

    /// `GMT`, `UT`, `UTC`, `Z` or `+hhmm`/`-hhmm`, and nothing after it.
    private static func zone(_ b: UnsafeBufferPointer<UInt8>, from i: Int) -> Int? {
        let rest = b.count - i
        if rest == 5, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            var value = 0
            for k in 1...4 {
                guard b[i + k].isASCIIDigit else { return nil }
                value = value * 10 + Int(b[i + k] - 0x30)
            }
            let seconds = (value / 100) * 3600 + (value % 100) * 60
            return b[i] == UInt8(ascii: "-") ? -seconds : seconds
        }
        guard (1...3).contains(rest) else { return nil }
        var name: UInt32 = 0
        for k in 0..<rest { name = name << 8 | UInt32(b[i + k].asciiLowercased) }
        switch name {
        case 0x67_6D_74, 0x75_74_63, 0x75_74, 0x7A: return 0  // gmt, utc, ut, z
        default: return nil
        }
    }

    private static func key(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a.asciiLowercased) << 16 | UInt32(b.asciiLowercased) << 8 | UInt32(c.asciiLowercased)
    }

    private static let monthKeys: [UInt32] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map { name in let u = Array(name.utf8); return key(u[0], u[1], u[2]) }

    private static let dayKeys: [UInt32] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        .map { name in let u = Array(name.utf8); return key(u[0], u[1], u[2]) }

    private static func month(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        monthKeys.firstIndex(of: key(a, b, c)).map { $0 + 1 }
    }

    private static func isDayName(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        dayKeys.contains(key(a, b, c))
    }
}
