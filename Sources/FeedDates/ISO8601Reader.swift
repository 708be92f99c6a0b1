import FeedBasics

/// Reads ISO 8601 / W3CDTF: `YYYY`, `YYYY-MM`, `YYYY-MM-DD` (or `YYYY/M/D`), the basic form `YYYYMMDD`,
/// then optionally `T`/`t`/space, `hh:mm[:ss[.fraction]]` (or `hhmm[ss]`), then an optional
/// zone: `Z`, `±hh`, `±hhmm`, `±hh:mm`, or a zone name such as `UTC` or `GMT`.
struct ISO8601Reader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func read() -> Int64? {
        guard let year = digits(4) else { return nil }
        var month = 1
        var day = 1
        // `-`, or `/` (year first with slashes, `2020/1/10`: never ambiguous), used throughout.
        let separator = peek()
        let extended = separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/")
        if extended {
            position += 1
            guard let parsedMonth = digits(2) ?? digits(1) else { return nil }
            month = parsedMonth
            if separator == UInt8(ascii: "/"), peek() != separator { return nil }  // `2020/1` alone is no date
            if peek() == separator {
                position += 1
                guard let parsedDay = digits(2) ?? digits(1) else { return nil }
                day = parsedDay
            }
        } else if !atEnd {
            guard let parsedMonth = digits(2), let parsedDay = digits(2) else { return nil }
            (month, day) = (parsedMonth, parsedDay)
        }
        var hour = 0, minute = 0, second = 0
        if let separator = peek(), separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20 {
            position += 1
            skipSpaces()
            guard let parsedHour = digits(2) else { return nil }
            hour = parsedHour
            if peek() == UInt8(ascii: ":") { position += 1 }
            guard let parsedMinute = digits(2) else { return nil }
            minute = parsedMinute
            if peek() == UInt8(ascii: ":") { position += 1 }
            if let parsedSecond = digits(2) {
                second = parsedSecond
                if peek() == UInt8(ascii: ".") || peek() == UInt8(ascii: ",") {
                    position += 1
                    guard let fraction = peek(), fraction.isASCIIDigit else { return nil }
                    while let next = peek(), next.isASCIIDigit { position += 1 }
                }
            }
        }
        skipSpaces()
        guard let offset = readZone() else { return nil }
        skipSpaces()
        guard atEnd else { return nil }
        return FeedDate.epochSeconds(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
    }

    private var atEnd: Bool { position >= bytes.count }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipSpaces() {
        while let next = peek(), next == 0x20 { position += 1 }
    }

    /// Exactly `count` digits as a number, consuming them; nothing consumed when they are not there.
    private mutating func digits(_ count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        var value = 0
        for index in position..<position + count {
            guard bytes[index].isASCIIDigit else { return nil }
            value = value * 10 + Int(bytes[index] - 0x30)
        }
        if count == 1, position + 1 < bytes.count, bytes[position + 1].isASCIIDigit { return nil }
        position += count
        return value
    }

    /// The zone offset in seconds east of UTC; 0 when absent; `nil` when unreadable.
    private mutating func readZone() -> Int? {
        guard let first = peek() else { return 0 }
        if first == UInt8(ascii: "Z") || first == UInt8(ascii: "z") {
            position += 1
            return 0
        }
        if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            position += 1
            guard let hours = digits(2) else { return nil }
            var minutes = 0
            if peek() == UInt8(ascii: ":") {
                position += 1
                if let full = digits(2) {
                    minutes = full
                } else if let cut = digits(1) {
                    // Cut short (`+05:3`): the only offsets in use end in :00, :30 or :45, so one
                    // digit says which; any other digit is ambiguous and the date is missing.
                    guard let expanded = [0: 0, 3: 30, 4: 45][cut] else { return nil }
                    minutes = expanded
                } else {
                    return nil
                }
            } else {
                minutes = digits(2) ?? 0
            }
            let offset = hours * 3600 + minutes * 60
            return first == UInt8(ascii: "-") ? -offset : offset
        }
        let rest = Array(bytes[position...])
        guard let offset = ZoneNames.offsetSeconds(rest) else { return nil }
        position = bytes.count
        return offset
    }
}
