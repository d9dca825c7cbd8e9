/// GNUstep's date text, `<*D2001-01-01 00:00:00 +0000>`, both ways.
enum GNUstepDate {
    /// Seconds since 2001-01-01 00:00:00 UTC for `YYYY-MM-DD HH:MM:SS +ZZZZ`, or with a fraction
    /// of a second `HH:MM:SS.ddd` (which this package's writer adds when a date has one).
    static func seconds(from text: [UInt8]) -> Double? {
        var bytes = text
        var fraction = 0.0
        if bytes.count > 26, bytes[19] == 0x2E {
            let digits = bytes[20..<(bytes.count - 6)]
            guard digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Double("0." + String(decoding: digits, as: UTF8.self))
            else { return nil }
            fraction = value
            bytes.removeSubrange(19..<(bytes.count - 6))
        }
        guard bytes.count == 25 else { return nil }
        func number(_ from: Int, _ length: Int) -> Int64? {
            var value: Int64 = 0
            for position in from..<(from + length) {
                let byte = bytes[position]
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
            bytes[19] == 0x20, bytes[20] == 0x2B || bytes[20] == 0x2D,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let zoneHours = number(21, 2), let zoneMinutes = number(23, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
            zoneHours < 24, zoneMinutes < 60
        else { return nil }
        let days = CivilCalendar.gregorianDay(year: year, month: month, day: day) - CivilCalendar.unixEpochDay
        var seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        let zone = zoneHours * 3600 + zoneMinutes * 60
        seconds -= bytes[20] == 0x2B ? zone : -zone
        return Double(seconds) - ISO8601.referenceOffset + fraction
    }

    /// `YYYY-MM-DD HH:MM:SS +0000`, with the fraction of a second after the seconds when there is
    /// one (`00:00:00.25`; the reader adds it back exactly, though -0.0 reads back as 0.0);
    /// `nil` outside years 1...9999 and for the rare date whose fraction cannot be written exactly.
    static func text(for seconds: Double) -> String? {
        let whole = seconds.rounded(.down)
        guard let iso = ISO8601.string(secondsSinceReference: whole, fraction: false) else { return nil }
        // "2001-01-01T00:00:00Z" -> "2001-01-01 00:00:00 +0000"
        var text = String(iso.dropLast()).replacing("T", with: " ")
        let fraction = seconds - whole
        if fraction > 0 { text += decimalFraction(fraction) }
        text += " +0000"
        // A fraction too small to survive `whole + fraction` (a date a hair before 2001, say) has
        // no text that reads back exactly.
        return Self.seconds(from: Array(text.utf8)) == seconds ? text : nil
    }

    /// `fraction` (0 < fraction < 1) as `.ddd`: the shortest digits that read back to it.
    static func decimalFraction(_ fraction: Double) -> String {
        let shortest = fraction.description  // "0.25" or "1.5e-05"
        guard let exponentIndex = shortest.firstIndex(of: "e") else { return String(shortest.dropFirst()) }
        let mantissa = shortest[..<exponentIndex].replacing(".", with: "")
        let exponent = Int(shortest[shortest.index(after: exponentIndex)...])!
        return "." + String(repeating: "0", count: -exponent - 1) + mantissa
    }
}
