/// ISO 8601 date text for the Codable date strategies of PlistKit, in the calendar of
/// Foundation's coders (`FoundationRules.codable`: Julian before 1582-10-15), which PlistKit's
/// encoder and decoder use for every date they write or read as text.
package enum DateText {
    /// `YYYY-MM-DDTHH:MM:SSZ`, with the fraction of a second when there is one (the shortest
    /// digits that give it back); `nil` outside the years 1...9999 (`XMLDate.problem`).
    package static func iso8601(seconds: Double) -> String? {
        guard XMLDate.problem(with: seconds, rules: .codable) == nil else { return nil }
        let whole = seconds.rounded(.down)
        var text = ShortText()
        XMLDate.appendFields(ofWholeSecond: Int64(whole), rules: .codable, to: &text)
        text.removeLast()  // the `Z`, after the fraction
        var string = String(decoding: text.array, as: UTF8.self)
        if seconds > whole { string += GNUstepDate.decimalFraction(seconds - whole) }
        return string + "Z"
    }

    /// The seconds since 2001-01-01 that `YYYY-MM-DDTHH:MM:SS[.fraction]Z` stands for: a real
    /// date and time of the calendar (second 60 is the next minute's first).
    package static func seconds(iso8601 text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int64(bytes[index] - 0x30)
            }
            return value
        }
        var fraction = 0.0
        if bytes.count > 20 {
            let digits = bytes[20..<(bytes.count - 1)]
            guard bytes[19] == UInt8(ascii: "."), digits.count > 0, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Double("0." + String(decoding: digits, as: UTF8.self))
            else { return nil }
            fraction = value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            let whole = CivilCalendar.wholeSecond(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second, rules: .codable)
        else { return nil }
        return Double(whole) + fraction
    }
}
