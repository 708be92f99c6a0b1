import TestSupport
import Testing

@testable import FeedDates

/// Expected values were computed independently with Python's `calendar.timegm`.
@Suite("FeedDate: one forgiving parser for every format")
struct FeedDateTests {
    @Test("reads RFC 822 and its variants", arguments: [
        ("Tue, 21 Apr 2009 23:32:00 +0000", 1_240_356_720),
        ("Sun, 19 May 2002 15:21:36 GMT", 1_021_821_696),
        ("Sun, 19 May 02 15:21:36 GMT", 1_021_821_696),  // two-digit year
        ("19 May 2002 15:21:36 GMT", 1_021_821_696),  // no day name
        ("Sun, 19 May 2002 15:21 GMT", 1_021_821_660),  // no seconds
        ("Sun, 19 May 2002 15:21:36 EST", 1_021_839_696),
        ("Sun, 19 May 2002 15:21:36 PDT", 1_021_846_896),
        ("Sun, 19 May 2002 15:21:36 UT", 1_021_821_696),
        ("Sun, 19 May 2002 15:21:36 Z", 1_021_821_696),
        ("Sun, 19 May 2002 15:21:36 A", 1_021_825_296),  // military, RFC 822 sign
        ("Sun, 19 May 2002 15:21:36 N", 1_021_818_096),
        ("Sun, 19 May 2002 15:21:36 +05:30", 1_021_801_896),
        ("Sun, 19 May 2002 15:21:36 -0800", 1_021_850_496),
        ("Sun, 19 May 2002 15:21:36", 1_021_821_696),  // no zone: UTC
        ("Wed, 02 Oct 2002 08:00:00 EDT", 1_033_560_000),
        ("Sun, 19 May 1999 15:21:36 GMT", 927_127_296),
        ("Sun, 19 May 99 15:21:36 GMT", 927_127_296),
    ])
    func rfc822(text: String, expected: Int64) {
        #expect(FeedDate.parse(text) == expected)
    }

    @Test("reads the broken forms seen in the wild", arguments: [
        ("Sunday, 19 May 2002 15:21:36 GMT", 1_021_821_696),  // full day name
        ("Mon, 2 January 2006 15:04:05 GMT", 1_136_214_245),  // full month name
        ("Thurs, 10 Sept 2009 08:00:00 +0000", 1_252_569_600),
        ("Monday, 02-Jan-06 15:04:05 GMT", 1_136_214_245),  // RFC 850
        ("Mon Jan  2 15:04:05 2006", 1_136_214_245),  // asctime
        ("Sun, 19 May 2002 15:21:36 GMT+0200", 1_021_814_496),
        ("Sun, 19 May 2002 15:21:36 +0000 (UTC)", 1_021_821_696),
        ("May 19, 2002 3:21 PM", 1_021_821_660),
        ("Thu, 01 Jan 106 00:00:00 GMT", 1_136_073_600),  // getYear() bug
        ("Fri, 20 May 2002 15:21:36 GMT", 1_021_908_096),  // wrong day name is ignored
        ("Sat, Dec 16 2023 02:02:33 PM", 1_702_735_353),  // month before day, 12-hour clock
        ("Sat, 16 Dec 2023 02:02:33 PM", 1_702_735_353),
        ("Sat, 16 Dec 2023 12:02:33 AM", 1_702_684_953),
        ("Sat, 16 Dec 2023 2:02:33 PM GMT", 1_702_735_353),
        ("Saturday, December 16, 2023 2:02:33 pm", 1_702_735_353),
        ("Dec 16, 2023 02:02:33PM", 1_702_735_353),
        ("2020/1/10 14:33:00", 1_578_666_780),  // year first with slashes
        ("2020/01/10", 1_578_614_400),
    ])
    func wild(text: String, expected: Int64) {
        #expect(FeedDate.parse(text) == expected)
    }

    @Test("reads ISO 8601 and W3CDTF", arguments: [
        ("2003-12-13T18:30:02Z", 1_071_340_202),
        ("2003-12-13T18:30:02.25Z", 1_071_340_202),
        ("2003-12-13T18:30:02+01:00", 1_071_336_602),
        ("2003-12-13T18:30:02-0500", 1_071_358_202),
        ("2003-12-13T18:30Z", 1_071_340_200),
        ("2003-12-13T18:30:02", 1_071_340_202),
        ("2003-12-13 18:30:02", 1_071_340_202),
        ("2003-12-13 18:30:02 -0700", 1_071_365_402),
        ("2003-12-13t18:30:02z", 1_071_340_202),
        ("2003-12-13", 1_071_273_600),
        ("2003-12", 1_070_236_800),
        ("2003", 1_041_379_200),
        ("20031213T183002Z", 1_071_340_202),
        ("2003-12-13T18:30:02+05", 1_071_322_202),
        ("2000-02-29T00:00:00Z", 951_782_400),
        ("2012-06-30T23:59:60Z", 1_341_100_800),
        ("2003-12-31T24:00:00Z", 1_072_915_200),
        ("  2003-12-13T18:30:02Z \n", 1_071_340_202),
        ("1969-07-20T20:17:40Z", -14_182_940),
        ("2017-06-13T03:18:00+00:0", 1_497_323_880),  // offset cut short: :0 is :00
        ("2017-06-13T03:18:00+05:3", 1_497_304_080),  // :3 is :30
        ("2017-06-13T03:18:00-04:4", 1_497_340_980),  // :4 is :45, the only offset it can be
    ])
    func iso8601(text: String, expected: Int64) {
        #expect(FeedDate.parse(text) == expected)
    }

    @Test("a date it cannot read is missing, never now", arguments: [
        "", "   ", "yesterday", "not a date at all", "2003-13-01", "2003-02-30T00:00:00Z", "2001-02-29",
        "Sun, 32 May 2002 15:21:36 GMT", "Sun, 19 Foo 2002 15:21:36 GMT",
        "2003-12-13T25:00:00Z", "2003-12-13T18:61Z", "12/13/2003", "01/02/2023", "2020/13/01", "2020/1-10",
        "2017-06-13T03:18:00+05:1", "Sat, 16 Dec 2023 14:02:33 PM", "Sun, 19 May 2002 15:21:36 XYZ",
        "2003-12-13T18:30:02+25:00", "2003-12-13Tfoo",
    ])
    func unreadable(text: String) {
        #expect(FeedDate.parse(text) == nil)
    }

    /// Issue 38: whether a year is plausible is the normaliser's rule, made once; the parser
    /// reads any year its formats can write, as written, and nothing can overflow or trap.
    @Test("reads every year four digits can write, as written", arguments: [
        ("0000-01-01T00:00:00Z", -62_167_219_200),
        ("0001-01-01T00:00:00Z", -62_135_596_800),  // Go's zero time
        ("Mon, 01 Jan 0001 00:00:00 +0000", -62_135_596_800),  // the same in RFC 1123 (was read as 2001)
        ("01 January 0001", -62_135_596_800),  // by token
        ("0999-12-31", -30_610_310_400),
        ("Fri, 31 Dec 0999 00:00:00 GMT", -30_610_310_400),  // four digits: not years since 1900
        ("1900-01-01T00:00:00Z", -2_208_988_800),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
        ("9999-12-31T23:59:59-18:00", 253_402_365_599),
        ("Dec 31 9999 11:59:59 PM", 253_402_300_799),
    ])
    func everyFourDigitYear(text: String, expected: Int64) {
        #expect(FeedDate.parse(text) == expected)
    }

    @Test("more digits or a sign is no date, and never a trap", arguments: [
        "99999-01-01", "+99999-01-01", "-0001-01-01", "-9999-12-31T23:59:59Z", "Jan 1 99999", "Fri, 31 Dec 99999 23:59:59 GMT",
        "99999999999999999999", "1 Jan -5", "-9223372036854775808", "9223372036854775807-01-01",
        "Sun, 19 May 2002 99999999999999999999:00:00 GMT", "2002-05-19T15:21:36+99999999999999999999",
        "Sun, 19 May 2002 15:21:36 +99999999999999999999", "Sun, 19 May 2002 15:21:36 GMT+99999999999999999999",
    ])
    func overlong(text: String) {
        #expect(FeedDate.parse(text) == nil)
    }

    /// The positional fast path must agree with the token reader on everything it accepts,
    /// and leave everything else to it.
    @Test("the RFC 1123 fast path reads exactly what the token reader reads")
    func fastPathAgreesWithTokenReader() {
        var generator = SeededGenerator.announced()
        let days = ["", "Sun, ", "Mon, ", "sat, ", "Xyz, ", "Sun,"]
        let dayNumbers = ["1", "01", "6", "31", "32", "001", ""]
        let months = ["Jan", "feb", "DEC", "Foo", "Sept", "May"]
        let years = ["1994", "2024", "94", "02024", "0999"]
        let times = ["08:49:37", "8:49:37", "23:59:60", "24:00:00", "08:49", "08:61:00"]
        let zones = ["GMT", "gmt", "UT", "UTC", "Z", "+0000", "-0530", "+2400", "EST", "+00:00", "", "GMT "]
        var accepted = 0
        for _ in 0..<5_000 {
            let text = days.randomElement(using: &generator)! + dayNumbers.randomElement(using: &generator)! + " "
                + months.randomElement(using: &generator)! + " " + years.randomElement(using: &generator)! + " "
                + times.randomElement(using: &generator)! + " " + zones.randomElement(using: &generator)!
            let bytes = Array(text.utf8)
            if let fast = RFC1123Reader.read(bytes) {
                accepted += 1
                #expect(LooseDateReader(bytes).read() == fast, "\(text)")
            }
        }
        #expect(accepted > 100)
        #expect(RFC1123Reader.read(Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)) == 784_111_777)
        #expect(RFC1123Reader.read(Array("6 Nov 1994 08:49:37 -0130".utf8)) == Int64(784_117_177))
    }
}
