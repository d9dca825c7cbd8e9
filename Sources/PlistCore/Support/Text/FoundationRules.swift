/// Whose rules an XML reader or writer follows where Foundation's two property-list APIs
/// part: `PropertyListSerialization` (CoreFoundation) and the Codable coders
/// (`PropertyListEncoder` and `PropertyListDecoder`, swift-foundation). Each API of this package
/// follows one (docs/COMPATIBILITY.md, "Dates" and "Codable").
package enum FoundationRules: Hashable, Sendable {
    /// CoreFoundation's. Dates: the proleptic Gregorian calendar (year 0 exists, and a `-`
    /// before the year counts); a day or time past its range carries into the next
    /// (`2024-01-32` is February 1), month 13 is the next January, months 0 and 14...99 count
    /// as January. Reals: `-0.0` is written as `0.0`.
    case coreFoundation
    /// The Codable coders'. Dates: the ISO 8601 calendar, that is the Julian calendar before
    /// 1582-10-15 and the Gregorian one from that day on. A `-` before the year is ignored;
    /// every field past its range carries, months too (month 0 is the December before, month 14
    /// the next February). Years past 506714 follow the proleptic Gregorian calendar with the
    /// sign, as CoreFoundation's. Reals: `-0.0` keeps its sign.
    case codable
}

/// The fields of a date as `<date>` text spells them, before any range check.
package struct DateFields {
    /// The digits of the year, accumulated as CoreFoundation does (in 32 bits, wrapping).
    package var wrappedYear: Int32 = 0
    /// The digits of the year; `nil` past `Int64.max`.
    package var year: Int64? = 0
    package var isNegative = false
    package var month: Int64 = 0
    package var day: Int64 = 0
    package var hour: Int64 = 0
    package var minute: Int64 = 0
    package var second: Int64 = 0

    package init() {}

    /// Adds a digit to the year.
    package mutating func appendYearDigit(_ digit: UInt8) {
        wrappedYear = wrappedYear &* 10 &+ Int32(digit)
        year = year.flatMap { year in
            let (shifted, overflow1) = year.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit))
            return overflow1 || overflow2 ? nil : sum
        }
    }
}

extension FoundationRules {
    /// The seconds since 2001-01-01 00:00:00 UTC that `fields` stand for, or `nil` when these
    /// rules cannot read them (a year past `Int64.max` for `codable`, which Foundation refuses).
    package func seconds(of fields: DateFields) -> Double? {
        switch self {
        case .coreFoundation:
            // CoreFoundation: `CFGregorianDateGetAbsoluteTime` of the fields, its year an SInt32.
            let year = fields.isNegative ? 0 &- fields.wrappedYear : fields.wrappedYear
            let days = Self.coreFoundationDays(absoluteYear: Int64(year &- 2001), month: fields.month, day: fields.day)
            return Self.seconds(days: Double(days), fields)
        case .codable:
            guard let magnitude = fields.year else { return nil }
            guard magnitude <= Self.lastCalendarYear else {
                // swift-foundation gives up its calendar past this year and falls back on
                // CoreFoundation's arithmetic, in 64 bits, with the sign.
                let year = fields.isNegative ? -magnitude : magnitude
                let (absolute, overflow) = year.subtractingReportingOverflow(2001)
                guard !overflow else { return nil }
                return Self.seconds(days: Self.fallbackDays(absoluteYear: absolute, fields.month, fields.day), fields)
            }
            // `Calendar.date(from:)`: the month carries into the year, then the day is counted
            // from the day before the month's first, and the result is the Julian calendar's
            // when it falls before the reform.
            var (year, month) = (magnitude, fields.month)
            if month > 12 {
                year += (month - 1) / 12
                month = (month - 1) % 12 + 1
            } else if month < 1 {
                year -= 1
                month = 12
            }
            var day = CivilCalendar.gregorianDay(year: year, month: month, day: 0) + fields.day
            if day < CivilCalendar.firstGregorianDay {
                day = CivilCalendar.julianCalendarDay(year: year, month: month, day: 0) + fields.day
            }
            let seconds =
                (day - CivilCalendar.referenceDay) * 86_400 + fields.hour * 3600 + fields.minute * 60 + fields.second
            return Double(seconds)
        }
    }

    /// `86400.0 * days`, then the time of day added in `Double`s, as both Foundations add it.
    private static func seconds(days: Double, _ fields: DateFields) -> Double {
        86_400.0 * days + (3600.0 * Double(fields.hour) + 60.0 * Double(fields.minute) + Double(fields.second))
    }

    /// The last year `Calendar.date(from:)` takes (swift-foundation's supported range).
    static let lastCalendarYear: Int64 = 506_714

    /// Days from 2001-01-01 to the date, by CoreFoundation's `__CFAbsoluteFromYMD`: whole years
    /// (proleptic Gregorian), then its table of days before each month, which holds 365 for
    /// month 13 and nothing for 0 and 14 and up, then `day - 1`.
    private static func coreFoundationDays(absoluteYear: Int64, month: Int64, day: Int64) -> Int64 {
        let year = absoluteYear + 2001
        let start = CivilCalendar.gregorianDay(year: year, month: 1, day: 1) - CivilCalendar.referenceDay
        return start + daysBeforeMonth(month, leap: CivilCalendar.isGregorianLeap(year)) + day - 1
    }

    /// The days before `month` in a year, for months 1 to 13; 0 for the others.
    private static func daysBeforeMonth(_ month: Int64, leap: Bool) -> Int64 {
        guard (1...13).contains(month) else { return 0 }
        let before: InlineArray<13, Int64> = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]
        return before[Int(month - 1)] + (month > 2 && leap ? 1 : 0)
    }

    /// swift-foundation's fallback beyond its calendar's years (`Date(gregorianYear:...)`): the
    /// days of each year since the last multiple of 400 added one by one in a `Double`, which
    /// rounds for years past 10^13, as it does there.
    private static func fallbackDays(absoluteYear year: Int64, _ month: Int64, _ day: Int64) -> Double {
        let cycles = year / 400
        var days = Double(cycles) * 146_097.0
        let remaining = year - cycles * 400
        func length(_ absolute: Int64) -> Double { CivilCalendar.isGregorianLeap(absolute &+ 2001) ? 366 : 365 }
        if remaining < 0 {
            for absolute in remaining..<0 { days -= length(absolute) }
        } else {
            for absolute in 0..<remaining { days += length(absolute) }
        }
        days += Double(daysBeforeMonth(month, leap: CivilCalendar.isGregorianLeap(year &+ 2001)))
        days += Double(day - 1)
        return days
    }
}

/// Calendar arithmetic on Julian day numbers (the day count astronomers use; 2001-01-01 is
/// day 2,451,911), in integers.
package enum CivilCalendar {
    /// The Julian day number of 2001-01-01.
    static let referenceDay: Int64 = 2_451_911
    /// The Julian day number of 1582-10-15, the first day of the Gregorian calendar.
    static let firstGregorianDay: Int64 = 2_299_161
    /// 1582-10-15T00:00:00Z in seconds since 2001: dates before it are the Julian calendar's
    /// for `FoundationRules.codable`.
    static let firstGregorianSecond: Int64 = -13_197_600_000

    /// The day number of 1970-01-01, for days counted from there.
    package static let unixEpochDay: Int64 = 2_440_588

    /// Whether the proleptic Gregorian year `year` (astronomical: 0 is 1 BC) is a leap year.
    package static func isGregorianLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The day number of `year`-`month`-`day` in the proleptic Gregorian calendar, for a month
    /// from 1 to 12 and any day (the days past the month's end count on).
    package static func gregorianDay(year: Int64, month: Int64, day: Int64) -> Int64 {
        // March-based years, so that February's length only matters at a year's end.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        // 1,721,120 is the day number of 0000-03-01.
        return era * 146_097 + dayOfEra + 1_721_120
    }

    /// The day number of `year`-`month`-`day` in the proleptic Julian calendar (a leap year
    /// every fourth year), for a month from 1 to 12 and any day.
    static func julianCalendarDay(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let cycle = (y >= 0 ? y : y - 3) / 4
        let yearOfCycle = y - cycle * 4
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        // 1,721,118 is the day number of 0000-03-01 in the Julian calendar.
        return cycle * 1461 + yearOfCycle * 365 + dayOfYear + 1_721_118
    }

    /// Year, month and day of day number `day` in the proleptic Gregorian calendar.
    package static func gregorianDate(day: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = day - 1_721_120
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        return marchBased(year: yearOfEra + era * 400, dayOfYear: dayOfYear)
    }

    /// Year, month and day of day number `day` in the proleptic Julian calendar.
    static func julianCalendarDate(day: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = day - 1_721_118
        let cycle = (z >= 0 ? z : z - 1460) / 1461
        let dayOfCycle = z - cycle * 1461
        let yearOfCycle = min(dayOfCycle / 365, 3)
        return marchBased(year: cycle * 4 + yearOfCycle, dayOfYear: dayOfCycle - yearOfCycle * 365)
    }

    /// The date `dayOfYear` days after March 1 of `year`.
    private static func marchBased(year: Int64, dayOfYear: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (year + (month <= 2 ? 1 : 0), month, day)
    }

    /// The fields of the whole second `seconds` (since 2001) in the calendar of `rules`: the
    /// proleptic Gregorian one, or for `codable` the Julian one before 1582-10-15.
    package static func fields(ofWholeSecond seconds: Int64, rules: FoundationRules)
        -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64)
    {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let julian = rules == .codable && seconds < firstGregorianSecond
        let date = julian ? julianCalendarDate(day: days + referenceDay) : gregorianDate(day: days + referenceDay)
        return (date.year, date.month, date.day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// The whole second (since 2001) of a real date and time in the calendar of `rules` (second
    /// 60 is the next minute's first), or `nil` when the date is not one of that calendar
    /// (February 30; 1582-10-10 for `codable`).
    package static func wholeSecond(
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, rules: FoundationRules
    ) -> Int64? {
        guard (1...12).contains(month), (1...31).contains(day), (0..<24).contains(hour), (0..<60).contains(minute),
            (0...60).contains(second)
        else { return nil }
        let gregorian = gregorianDay(year: year, month: month, day: day)
        let useJulian = rules == .codable && gregorian < firstGregorianDay
        let number = useJulian ? julianCalendarDay(year: year, month: month, day: day) : gregorian
        let date = useJulian ? julianCalendarDate(day: number) : gregorianDate(day: number)
        guard date == (year, month, day), !useJulian || number < firstGregorianDay else { return nil }
        return (number - referenceDay) * 86_400 + hour * 3600 + minute * 60 + second
    }
}
