#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Date` header's text (RFC 5322 §3.3) in UTC: `Sat, 28 Nov 2026 02:25:00 +0000`; computed from the Unix
/// time alone (the proleptic Gregorian calendar), so no locale or time zone database is involved.
enum MailDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` in whole seconds (rounded down).
    static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(secondOfDay / 3600)):"
            + "\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60)) +0000"
    }

    /// `date` as `20261128T022500.123Z` (UTC, milliseconds rounded down): file names that sort by time.
    static func compact(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = floorDivide(milliseconds, 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let fraction = String(milliseconds - seconds * 1000)
        return "\(year)\(two(Int64(month)))\(two(day))T\(two(secondOfDay / 3600))\(two(secondOfDay % 3600 / 60))"
            + "\(two(secondOfDay % 60)).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)Z"
    }

    private static func two(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }

    /// Year, month (1–12) and day from days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (Int64, Int, Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), Int(month), day)
    }
}
