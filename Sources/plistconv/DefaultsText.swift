import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `defaults read` prints, in macOS's style (the description Foundation gives property
/// lists on Apple platforms), and the dates `-date` reads.
///
/// - A string alone is printed as it is; in a container it is quoted unless it is only ASCII
///   letters and digits, with `\"`, `\\`, `\n`, `\t`, `\r` and `\Uxxxx` (UTF-16, for
///   everything outside printable ASCII) escapes.
/// - Integers in decimal, reals with up to 16 significant digits (`1` for 1.0), Booleans as
///   `1` and `0`, dates as `2026-01-02 03:04:05 +0000` (quoted in a container), data as
///   `{length = 2, bytes = 0x0102}` (the first 16 and the last 8 bytes past 24).
/// - Containers over lines, four spaces a level, keys sorted: `{`, `key = value;`, `}`;
///   `(`, elements separated by `,`, `)`. A container inside another starts with its own
///   indentation, after `key = ` or the element's place, as on macOS.
enum DefaultsText {
    static func description(of value: Plist) -> String {
        switch value {
        case .string(let text): text
        case .date(let date): text(of: date)
        case .array, .dictionary: container(value, level: 0)
        default: element(value, level: 0)
        }
    }

    private static func container(_ value: Plist, level: Int) -> String {
        let indent = String(repeating: " ", count: level * 4)
        switch value {
        case .dictionary(let entries):
            var lines = [indent + "{"]
            var sorted = entries
            sorted.sort()
            for (key, value) in sorted {
                lines.append(indent + "    " + quoted(key) + " = " + element(value, level: level + 1) + ";")
            }
            lines.append(indent + "}")
            return lines.joined(separator: "\n")
        case .array(let elements):
            let items = elements.map { indent + "    " + element($0, level: level + 1) }
            return indent + "(\n" + items.map { $0 + ",\n" }.joined().dropLast(2) + (items.isEmpty ? "" : "\n") + indent
                + ")"
        default:
            return element(value, level: level)
        }
    }

    private static func element(_ value: Plist, level: Int) -> String {
        switch value {
        case .array, .dictionary: container(value, level: level)
        case .string(let text): quoted(text)
        case .integer(let number): "\(number)"
        case .real(let number): real(number)
        case .bool(let flag): flag ? "1" : "0"
        case .date(let date): "\"" + text(of: date) + "\""
        case .data(let data): dataText(data)
        case .uid(let number): "{value = \(number)}"
        }
    }

    /// `text` bare when it is only ASCII letters and digits, else quoted and escaped.
    static func quoted(_ text: String) -> String {
        if !text.isEmpty,
            text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) })
        {
            return text
        }
        var result = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x0A: result += "\\n"
            case 0x09: result += "\\t"
            case 0x0D: result += "\\r"
            case 0x20...0x7E: result.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                result += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return result + "\""
    }

    /// `%.16g`, as NSNumber describes a double.
    private static func real(_ value: Double) -> String { Platform.formatted(value, "%.16g") }

    private static func dataText(_ data: Data) -> String {
        let bytes = [UInt8](data)
        func hex(_ part: ArraySlice<UInt8>) -> String {
            part.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
        let body = bytes.count > 24 ? hex(bytes[0..<16]) + " ... " + hex(bytes[(bytes.count - 8)...]) : hex(bytes[...])
        return "{length = \(bytes.count), bytes = 0x\(body)}"
    }

    // MARK: Dates

    /// `YYYY-MM-DD HH:MM:SS +0000`, the date in UTC, whole seconds.
    static func text(of date: Date) -> String {
        // A date no calendar holds (NaN, infinite, beyond ±2^62 s) is printed as its number.
        guard let seconds = Int64(exactly: date.timeIntervalSince1970.rounded(.down)), abs(seconds) < 1 << 62 else {
            return "\(date.timeIntervalSinceReferenceDate)"
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = CivilCalendar.gregorianDate(day: days + CivilCalendar.unixEpochDay)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText =
            year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - "\(year)".count) + "\(year)" : "\(year)"
        return
            "\(yearText)-\(two(month))-\(two(day)) \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) +0000"
    }

    /// A date as `read` prints it (`2026-01-02 03:04:05 +0000`, any offset) or in ISO 8601
    /// (`2026-01-02T03:04:05Z`, `2026-01-02T05:04:05+02:00`, with or without a fraction of a
    /// second); nil for anything else.
    static func date(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.take("-"), let month = scanner.number(2), scanner.take("-"),
            let day = scanner.number(2), scanner.take(" ") || scanner.take("T"), let hour = scanner.number(2),
            scanner.take(":"), let minute = scanner.number(2), scanner.take(":"), let second = scanner.number(2)
        else { return nil }
        var fraction = 0.0
        if scanner.take(".") {
            var scale = 0.1
            guard let first = scanner.digit() else { return nil }
            fraction = Double(first) * scale
            while let digit = scanner.digit() {
                scale /= 10
                fraction += Double(digit) * scale
            }
        }
        _ = scanner.take(" ")
        var offset: Int64 = 0
        if !scanner.take("Z") {
            let sign: Int64
            if scanner.take("+") { sign = 1 } else if scanner.take("-") { sign = -1 } else { return nil }
            guard let hours = scanner.number(2) else { return nil }
            _ = scanner.take(":")
            guard let minutes = scanner.number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.atEnd, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24,
            minute < 60, second < 60
        else { return nil }
        let seconds =
            (CivilCalendar.gregorianDay(year: year, month: month, day: day) - CivilCalendar.unixEpochDay) * 86_400
            + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var atEnd: Bool { index == bytes.count }
        mutating func take(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        mutating func digit() -> Int64? {
            guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
            index += 1
            return Int64(bytes[index - 1] - 0x30)
        }
        mutating func number(_ count: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: CivilCalendar.isGregorianLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

}
