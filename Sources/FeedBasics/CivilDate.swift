/// Proleptic Gregorian calendar arithmetic on days since 1970-01-01 (Howard Hinnant's
/// `days_from_civil` and `civil_from_days`): exact for every year, no time zone database,
/// no Foundation `Calendar` (whose results depend on the machine's settings).
public enum CivilDate {
    @inlinable public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// RFC 3339 in UTC (`2024-11-04T09:12:44Z`) from seconds since the epoch. Total over
    /// `Int64`: a time read from a database may be any integer, and printing it must not trap.
    public static func rfc3339(_ seconds: Int64) -> String {
        let remainder = seconds % 86_400
        let days = seconds / 86_400 - (remainder < 0 ? 1 : 0)
        let secondOfDay = remainder < 0 ? remainder + 86_400 : remainder
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))Z"
    }
}
