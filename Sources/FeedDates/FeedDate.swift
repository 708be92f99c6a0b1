import FeedBasics
/// The one date parser every format shares.
///
/// Accepts RFC 822/1123/2822 and their common variants (two-digit years, missing seconds,
/// missing day name, full month names, named and military zones, `+0000` and `+00:00`),
/// RFC 850 (`Monday, 02-Jan-06`), asctime (`Mon Jan  2 15:04:05 2006`), and ISO 8601 /
/// W3CDTF with or without seconds, fractions and zone, with `T`, `t` or a space between
/// date and time. A date it cannot read is `nil`, never "now": the caller records it as
/// missing and may fall back to a first-seen time explicitly.
///
/// Decisions where the standards leave room:
/// - A missing zone means UTC.
/// - Two-digit years: 00–49 are 2000–2049, 50–99 are 1950–1999 (RFC 2822 §4.3);
///   three-digit years are years since 1900 (a Java/Perl `getYear` bug seen in real feeds).
///   Told by the digits written, not the value: `Mon, 01 Jan 0001` (Go's zero time) is year 1,
///   not 2001.
/// - Military zones use RFC 822's table (A = −1 … M = −12, N = +1 … Y = +12, Z = 0), as
///   feedparser does.
/// - Every year four digits can write (0000–9999) is read as written: whether a date is
///   plausible for an entry (not Go's zero time `0001-01-01`, not the epoch, not year 9999) is
///   decided once, by the normaliser, which knows when the feed was read. Five digits, or a
///   sign before the year, are not a date. Nothing here can overflow: the seconds of any year
///   it reads fit an `Int64` with room to spare.
/// - The day name is ignored, so a wrong one does not reject the date.
/// - A date whose meaning is ambiguous is missing, never guessed: `01/02/2023` (which comes
///   first, month or day?), an offset cut to one minute digit other than `:0`/`:3`/`:4`, a
///   12-hour `PM` on an hour past 12. Year first is never ambiguous: `2020/1/10` is read.
public enum FeedDate {
    /// Seconds since 1970-01-01T00:00:00Z, or `nil` when `text` is not a date Feedmill can read.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.trimmingASCIIWhitespace().utf8)
        guard !bytes.isEmpty, bytes.count < 128 else { return nil }
        if startsWithYear(bytes) {
            var reader = ISO8601Reader(bytes)
            return reader.read()
        }
        return RFC1123Reader.read(bytes) ?? LooseDateReader(bytes).read()
    }

    /// Seconds since the epoch for a proleptic Gregorian civil date-time and an offset east of UTC.
    static func epochSeconds(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetSeconds: Int
    ) -> Int64? {
        guard (0...9999).contains(year), (1...12).contains(month),
            (1...daysInMonth(year: year, month: month)).contains(day),
            (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            hour < 24 || (minute == 0 && second == 0),
            abs(offsetSeconds) <= 18 * 3600
        else { return nil }
        let days = CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func startsWithYear(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for index in 0..<4 where !bytes[index].isASCIIDigit { return false }
        return bytes.count == 4 || bytes[4] == UInt8(ascii: "-") || bytes[4] == UInt8(ascii: "/") || bytes[4].isASCIIDigit
    }
}
