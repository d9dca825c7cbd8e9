/// The text of a `<date>`, by the rules of each of Foundation's APIs (`FoundationRules`).
///
/// `coreFoundation`: exactly as CoreFoundation writes it (`PropertyListSerialization`):
/// `%04d-%02d-%02dT%02d:%02d:%02dZ` of the fields of `CFAbsoluteTimeGetGregorianDate(seconds,
/// NULL)`, whose arithmetic is reproduced here step by step, including its overflows on x86-64.
/// What that means, all checked against Foundation on this machine:
/// - The fraction of a second is dropped by rounding down, also before 2001 and before 1970
///   (-0.5 → `2000-12-31T23:59:59Z`, 0.999999999 → `2001-01-01T00:00:00Z`).
/// - Years outside 1...9999 are written as they come: `0000-12-31T23:59:59Z`, `-002-12-31…`
///   (`%04d` of -2), `10000-01-01T00:00:00Z`; years above 2^31 - 1 stick at 2147483647.
/// - Rounding inside CF's `fmod` can give second 60: -1e-300 → `2000-12-31T23:59:60Z`.
/// - Except: negative values closer to 0 than 1e-300 are written as -1e-300 is. For them CF's
///   divisions underflow to -0 and it writes a second 60 in the wrong minute or day
///   (-5e-324 → `2001-01-01T00:00:60Z`, which reads back a minute after 2001; found by fuzzing).
/// - NaN, infinite and huge values overflow CF's integer conversions, which x86-64 turns into
///   the "integer indefinite" value (Int64.min, Int32.min); CF then stores hour and minute in
///   `SInt8`, so NaN is written `2030437302-06-07T24:60:-2147483648Z`. (An arm64 build of
///   CoreFoundation converts differently and would write other text for those values.)
///
/// `codable`: as `PropertyListEncoder` writes it: the second rounded down, its fields in the
/// ISO 8601 calendar (Julian before 1582-10-15), so `Date.distantPast` is
/// `0001-01-01T00:00:00Z`.
enum XMLDate {
    /// Why a date cannot be written in XML (as the type in an `.unrepresentable` message), or
    /// `nil` when it can. Both Foundations write other years, NaN and infinities too, as text
    /// that other readers refuse or read as another date (`10000-01-01T00:00:00Z`, plistlib
    /// refuses it; `2030437302-06-07T24:60:-2147483648Z`), so those are refused instead. Year 0
    /// is not written: plistlib and Python's `datetime` have no year 0.
    static func problem(with seconds: Double, rules: FoundationRules) -> String? {
        if seconds.isNaN { return "date that is not a number (NaN)" }
        if seconds.isInfinite {
            return seconds > 0 ? "date infinitely far in the future" : "date infinitely far in the past"
        }
        let first = rules == .codable ? firstCodableSecond : firstCalendarSecond
        if seconds.rounded(.down) < first { return "date before the year 1" }
        if seconds >= endOfWholeSeconds { return "date after the year 9999" }
        return nil
    }

    /// 0001-01-01T00:00:00Z, the first second of the year 1 (proleptic Gregorian).
    static let firstCalendarSecond = -63_113_904_000.0
    /// 0001-01-01T00:00:00Z in the Julian calendar: `Date.distantPast`, two days before.
    static let firstCodableSecond = -63_114_076_800.0

    /// The text of `seconds` by `rules`, which must have no `problem` for `codable`.
    static func append(secondsSinceReference seconds: Double, rules: FoundationRules, to out: inout ShortText) {
        if rules == .codable {
            appendFields(ofWholeSecond: Int64(seconds.rounded(.down)), rules: .codable, to: &out)
        } else {
            append(secondsSinceReference: seconds, to: &out)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of the whole second `seconds`, in the calendar of `rules`.
    static func appendFields(ofWholeSecond seconds: Int64, rules: FoundationRules, to out: inout ShortText) {
        let fields = CivilCalendar.fields(ofWholeSecond: seconds, rules: rules)
        appendFields(fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second, to: &out)
    }

    static func append(secondsSinceReference seconds: Double, to out: inout ShortText) {
        if seconds.rounded(.down) == seconds, seconds >= firstWholeSecond, seconds < endOfWholeSeconds {
            appendWholeSeconds(Int64(seconds), to: &out)
        } else {
            appendAsCoreFoundation(secondsSinceReference: seconds, to: &out)
        }
    }

    /// 1601-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the whole seconds between them take the
    /// short way.
    static let firstWholeSecond = -12_622_780_800.0
    static let endOfWholeSeconds = 252_423_993_600.0

    /// The text for a whole number of seconds from `firstWholeSecond` to `endOfWholeSeconds`,
    /// as dates read from property lists almost always are, in integer arithmetic. CF's
    /// divisions of such a value (by 86,400, 3,600 and 60) are exact: the quotient's fraction
    /// is at least 1/86,400 from a whole number, far more than a double's rounding at these
    /// magnitudes, so the fields are the same.
    static func appendWholeSeconds(_ seconds: Int64, to out: inout ShortText) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = ymd(fromAbsolute: days)
        appendFields(
            year + 2001, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, to: &out)
    }

    /// The text for any value, by CF's own steps.
    static func appendAsCoreFoundation(secondsSinceReference seconds: Double, to out: inout ShortText) {
        let at = seconds < 0 && seconds > -1e-300 ? -1e-300 : seconds
        let absolute = convertToInt64(floorDivide(at, 86_400))
        var (year, month, day) = ymd(fromAbsolute: absolute)
        if Int64(Int32.max) - 2001 < year { year = Int64(Int32.max) - 2001 }
        // CFGregorianDate: SInt32 year, SInt8 month, day, hour and minute, double second.
        let gregorianYear = Int32(truncatingIfNeeded: year + 2001)
        let hour = Int8(truncatingIfNeeded: modToInt(floorDivide(at, 3600), 24))
        let minute = Int8(truncatingIfNeeded: modToInt(floorDivide(at, 60), 60))
        let second = convertToInt32(mod(at, 60))
        appendFields(
            Int64(gregorianYear), month, day, Int64(hour), Int64(minute), Int64(second), to: &out)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, as CF's `%04d-%02d-%02dT%02d:%02d:%02dZ` writes the fields.
    static func appendFields(
        _ year: Int64, _ month: Int64, _ day: Int64, _ hour: Int64, _ minute: Int64, _ second: Int64,
        to out: inout ShortText
    ) {
        appendPadded(year, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendPadded(hour, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(minute, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(second, width: 2, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `floor(d / divisor)`.
    private static func floorDivide(_ d: Double, _ divisor: Double) -> Double { (d / divisor).rounded(.down) }

    /// CF's `__CFDoubleModToInt`: `(int32_t)(float)floor(d - floor(d / m) * m)`, plus m if negative.
    private static func modToInt(_ d: Double, _ modulus: Int32) -> Int32 {
        let m = Double(modulus)
        let remainder = (d - (d / m).rounded(.down) * m).rounded(.down)
        var result = convertToInt32(Float(remainder))
        if result < 0 { result &+= modulus }
        return result
    }

    /// CF's `__CFDoubleMod`: `d - floor(d / m) * m`, plus m if negative.
    private static func mod(_ d: Double, _ modulus: Int32) -> Double {
        let m = Double(modulus)
        var result = d - (d / m).rounded(.down) * m
        if result < 0 { result += m }
        return result
    }

    /// C's `(int64_t)d` on x86-64 (`cvttsd2si`): toward zero; NaN and out-of-range give Int64.min.
    private static func convertToInt64(_ d: Double) -> Int64 {
        guard d > -9_223_372_036_854_777_856.0, d < 9_223_372_036_854_775_808.0 else { return .min }
        return Int64(d)
    }

    /// C's `(int32_t)d` on x86-64: toward zero; NaN and out-of-range give Int32.min.
    private static func convertToInt32(_ d: Double) -> Int32 {
        guard d > -2_147_483_649.0, d < 2_147_483_648.0 else { return .min }
        return Int32(d)
    }

    /// C's `(int32_t)f` for a float on x86-64 (`cvttss2si`).
    private static func convertToInt32(_ f: Float) -> Int32 {
        guard f > -2_147_483_904.0, f < 2_147_483_648.0 else { return .min }
        return Int32(f)
    }

    /// CF's `isleap` for an "absolute year" (2001 is year 0).
    private static func isLeap(_ year: Int64) -> Bool {
        var y = (year + 1) % 400
        if y < 0 { y = -y }
        return y & 3 == 0 && y != 100 && y != 200 && y != 300
    }

    /// CF's `__CFYMDFromAbsolute`: year (2001 is 0), month and day of day `absolute` (2001-01-01 is 0).
    private static func ymd(fromAbsolute start: Int64) -> (year: Int64, month: Int64, day: Int64) {
        var absolute = start
        let cycles = absolute / 146_097
        var year = cycles * 400
        absolute -= cycles * 146_097
        while absolute < 0 {
            year -= 1
            absolute += isLeap(year) ? 366 : 365
        }
        if absolute >= 0, year % 400 == 0 {
            // Within a whole cycle (every date from 1601 on): the year from a closed form of
            // the days before each year of the cycle, corrected by at most one year.
            func daysBefore(_ year: Int64) -> Int64 { 365 * year + year / 4 - year / 100 + year / 400 }
            var offset = absolute * 400 / 146_097
            while offset > 0, daysBefore(offset) > absolute { offset -= 1 }
            while daysBefore(offset + 1) <= absolute { offset += 1 }
            year += offset
            absolute -= daysBefore(offset)
        }
        var yearDays: Int64 = isLeap(year) ? 366 : 365
        while yearDays <= absolute {
            year += 1
            absolute -= yearDays
            yearDays = isLeap(year) ? 366 : 365
        }
        let leap = isLeap(year)
        let daysBeforeMonth: InlineArray<14, Int64> = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]
        func before(_ month: Int64) -> Int64 { daysBeforeMonth[Int(month)] + (month > 2 && leap ? 1 : 0) }
        var month = absolute / 33 + 1
        while month + 1 <= 12, before(month + 1) <= absolute { month += 1 }
        return (year, month, absolute - before(month) + 1)
    }

    /// C's `%0<width>d`: a minus sign, then zeros up to `width` characters in all, then the digits.
    @inline(__always)
    private static func appendPadded(_ value: Int64, width: Int, to out: inout ShortText) {
        var place: Int64 = 1
        for _ in 1..<width { place *= 10 }
        if value >= 0, value / place < 10 {
            // Exactly `width` digits, first to last (the dates almost every file holds).
            while place > 0 {
                out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / place % 10))
                place /= 10
            }
            return
        }
        let start = out.count
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let digitsStart = out.count
        var rest = value.magnitude
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        while out.count - start < width { out.append(UInt8(ascii: "0")) }
        out.reverse(from: digitsStart)
    }
}
