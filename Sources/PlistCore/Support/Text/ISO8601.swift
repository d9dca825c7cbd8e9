/// ISO 8601 UTC timestamps for dates stored as seconds since 2001-01-01 00:00:00 UTC, computed
/// with integer calendar arithmetic (proleptic Gregorian calendar), no Foundation formatter.
enum ISO8601 {
    /// Seconds from 1970-01-01 to 2001-01-01.
    static let referenceOffset: Double = 978_307_200

    /// `YYYY-MM-DDTHH:MM:SSZ`, with the fraction of a second when `fraction` is set and it is not
    /// zero; `nil` for non-finite seconds or years outside 1...9999.
    static func string(secondsSinceReference seconds: Double, fraction: Bool) -> String? {
        guard seconds.isFinite else { return nil }
        let unix = seconds + referenceOffset
        let whole = unix.rounded(.down)
        guard let total = Int64(exactly: whole) else { return nil }
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = CivilCalendar.gregorianDate(day: days + CivilCalendar.unixEpochDay)
        guard (1...9999).contains(year) else { return nil }
        var text =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        let remainder = unix - whole
        if fraction, remainder > 0 {
            var digits = String(remainder.description.dropFirst(1))  // ".25" from "0.25"
            if digits.contains("e") { digits = "" }  // below a microsecond's precision: not shown
            text += digits
        }
        return text + "Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
