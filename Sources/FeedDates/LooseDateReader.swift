import FeedBasics

/// Reads the RFC 822 family and the forms that drift from it in the wild, by token rather
/// than by fixed position: `[Day,] DD Mon YYYY hh:mm[:ss] [zone]`, `Mon DD YYYY`, RFC 850's
/// `Monday, 02-Jan-06 15:04:05 GMT`, asctime's `Mon Jan  2 15:04:05 2006`, ordinal days
/// (`2nd`), `AM`/`PM`, `GMT+0200`, and a trailing comment such as `(UTC)`.
struct LooseDateReader {
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private struct Fields {
        var month: Int?
        var numbers: [(value: Int, digitCount: Int)] = []
        var time: (hour: Int, minute: Int, second: Int)?
        var offset: Int?
        var meridiem: UInt8?  // "a" or "p"
    }

    func read() -> Int64? {
        var fields = Fields()
        for token in tokens() {
            guard absorb(token, into: &fields) else { return nil }
        }
        guard let month = fields.month else { return nil }
        var day: Int?
        var year: (value: Int, digitCount: Int)?
        for number in fields.numbers {
            if number.digitCount == 4 || number.digitCount == 3 || number.value > 31 {
                guard year == nil else { return nil }
                year = number
            } else if day == nil {
                day = number.value
            } else if year == nil {
                year = number
            } else {
                return nil
            }
        }
        guard let parsedDay = day, let writtenYear = year else { return nil }
        // By the digits written, not the value: `0001` is year 1, `01` is 2001.
        var parsedYear = writtenYear.value
        switch writtenYear.digitCount {
        case ...2: parsedYear += parsedYear < 50 ? 2000 : 1900
        case 3: parsedYear += 1900
        default: break
        }
        var (hour, minute, second) = fields.time ?? (0, 0, 0)
        if let meridiem = fields.meridiem {
            guard (1...12).contains(hour) else { return nil }
            if meridiem == UInt8(ascii: "p"), hour < 12 { hour += 12 }
            if meridiem == UInt8(ascii: "a"), hour == 12 { hour = 0 }
        }
        return FeedDate.epochSeconds(
            year: parsedYear, month: month, day: parsedDay, hour: hour, minute: minute, second: second,
            offsetSeconds: fields.offset ?? 0)
    }

    /// Splits on white space and commas, drops `(comments)`, and splits `02-Jan-06` at its dashes.
    private func tokens() -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start: Int?
        var commentDepth = 0
        for index in 0...bytes.count {
            let byte: UInt8 = index < bytes.count ? bytes[index] : 0x20
            if byte == UInt8(ascii: "(") { commentDepth += 1 }
            let separates = byte.isASCIIWhitespace || byte == UInt8(ascii: ",") || commentDepth > 0
            if separates, let tokenStart = start {
                result.append(contentsOf: splitDashes(bytes[tokenStart..<index]))
                start = nil
            } else if !separates, start == nil {
                start = index
            }
            if byte == UInt8(ascii: ")") { commentDepth = max(0, commentDepth - 1) }
        }
        return result
    }

    private func splitDashes(_ token: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        guard token.contains(where: \.isASCIILetter), let first = token.first, first.isASCIIDigit else { return [token] }
        return token.split(separator: UInt8(ascii: "-")).map { $0 }
    }

    /// Folds one token into the fields; `false` when the token contradicts what is known.
    private func absorb(_ token: ArraySlice<UInt8>, into fields: inout Fields) -> Bool {
        guard let first = token.first else { return true }
        if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            guard fields.offset == nil || fields.offset == 0, let offset = numericOffset(token.dropFirst(), negative: first == UInt8(ascii: "-")) else {
                return false
            }
            fields.offset = offset
            return true
        }
        if token.contains(UInt8(ascii: ":")) {
            return absorbTime(token, into: &fields)
        }
        if first.isASCIIDigit {
            var digits = token.prefix(while: \.isASCIIDigit)
            let suffix = Array(token.dropFirst(digits.count).map(\.asciiLowercased))
            guard suffix.isEmpty || ["st", "nd", "rd", "th"].contains(String(decoding: suffix, as: UTF8.self)) else {
                return false
            }
            if digits.count > 4 { return false }
            if digits.isEmpty { digits = token }
            fields.numbers.append((number(digits), digits.count))
            return true
        }
        return absorbWord(token, into: &fields)
    }

    private func absorbTime(_ token: ArraySlice<UInt8>, into fields: inout Fields) -> Bool {
        guard fields.time == nil else { return false }
        var body = token
        // An attached zone: 15:04:05Z, 15:04:05+0000, 15:04:05GMT.
        if let signIndex = body.firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            guard let offset = numericOffset(body[(signIndex + 1)...], negative: body[signIndex] == UInt8(ascii: "-")) else { return false }
            fields.offset = offset
            body = body[..<signIndex]
        } else if let letterIndex = body.firstIndex(where: \.isASCIILetter) {
            guard absorbWord(body[letterIndex...], into: &fields) else { return false }
            body = body[..<letterIndex]
        }
        let parts = body.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return false }
        var values: [Int] = []
        for (index, part) in parts.enumerated() {
            var digits = part
            if index == 2, let dot = part.firstIndex(of: UInt8(ascii: ".")) { digits = part[..<dot] }
            guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCIIDigit) else { return false }
            values.append(number(digits))
        }
        fields.time = (values[0], values[1], values.count == 3 ? values[2] : 0)
        return true
    }

    private func absorbWord(_ token: ArraySlice<UInt8>, into fields: inout Fields) -> Bool {
        let word = Array(token.map(\.asciiLowercased))
        // GMT+0200, UTC-5: the numeric part wins.
        if let signIndex = word.firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            guard ZoneNames.offsetSeconds(Array(word[..<signIndex])) == 0,
                let offset = numericOffset(token.dropFirst(signIndex + 1), negative: word[signIndex] == UInt8(ascii: "-"))
            else { return false }
            fields.offset = offset
            return true
        }
        let text = String(decoding: word.filter { $0 != UInt8(ascii: ".") }, as: UTF8.self)
        if text == "am" || text == "pm" {
            fields.meridiem = word[0]
            return true
        }
        if let month = Self.month(text) {
            guard fields.month == nil else { return false }
            fields.month = month
            return true
        }
        if Self.isDayName(text) { return true }
        if let offset = ZoneNames.offsetSeconds(Array(text.utf8)) {
            guard fields.offset == nil else { return false }
            fields.offset = offset
            return true
        }
        return false
    }

    /// `hhmm`, `hh:mm`, `hh` or `h` after a sign.
    private func numericOffset(_ digits: ArraySlice<UInt8>, negative: Bool) -> Int? {
        let plain = digits.filter { $0 != UInt8(ascii: ":") }
        guard !plain.isEmpty, plain.count <= 4, plain.allSatisfy(\.isASCIIDigit) else { return nil }
        let value = number(plain[...])
        let seconds = plain.count <= 2 ? value * 3600 : (value / 100) * 3600 + (value % 100) * 60
        return negative ? -seconds : seconds
    }

    private func number<Digits: Collection>(_ digits: Digits) -> Int where Digits.Element == UInt8 {
        digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private static let fullMonths = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// `jan`, `january`, `sept`: a prefix of the full name at least three letters long.
    private static func month(_ word: String) -> Int? {
        guard word.utf8.count >= 3 else { return nil }
        for (index, name) in fullMonths.enumerated() where name.hasPrefix(word) { return index + 1 }
        if word == "sept" { return 9 }
        return nil
    }

    private static let dayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    private static func isDayName(_ word: String) -> Bool {
        guard word.utf8.count >= 2 else { return false }
        return dayNames.contains { $0.hasPrefix(word) && word.utf8.count >= 3 }
    }
}
