import OrderedCollections
import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What survives a trip through XML, as CoreFoundation writes it and XML parsers read it: dates
/// keep whole seconds (years 1 to 9999), every NaN reads back as NaN and -0.0 as 0.0, "\r" and "\r\n" in text read
/// back as "\n", and a dictionary whose one entry is `CF$UID` and a non-negative integer reads back
/// as a UID.
public enum XMLImage {
    /// Seconds since 2001 of 0001-01-01T00:00:00Z and of 10000-01-01T00:00:00Z.
    static let calendarSeconds = -63_113_904_000.0..<252_423_993_600.0

    /// Whether the written document is readable: no character XML 1.0 forbids, no date it
    /// cannot write as four-digit years.
    public static func canHold(_ value: Plist) -> Bool {
        switch value {
        case .string(let string): canHold(string)
        case .date(let date): calendarSeconds.contains(date.timeIntervalSinceReferenceDate)
        case .array(let elements): elements.allSatisfy(canHold)
        case .dictionary(let entries): entries.allSatisfy { canHold($0.key) && canHold($0.value) }
        default: true
        }
    }

    static func canHold(_ string: String) -> Bool {
        string.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: true
            case 0..<0x20, 0xFFFE, 0xFFFF: false
            default: true
            }
        }
    }

    /// Whether `reread` is what XML makes of `original`.
    static func matches(_ reread: Plist, _ original: Plist) -> Bool {
        switch (reread, original) {
        case (.string(let a), .string(let b)):
            return a == lineEnds(b)
        case (.real(let a), .real(let b)):
            if b.isNaN { return a.isNaN }
            if b == 0 { return a == 0 && a.sign == .plus }
            return a.bitPattern == b.bitPattern
        case (.date(let a), .date(let b)):
            let seconds = b.timeIntervalSinceReferenceDate
            guard calendarSeconds.contains(seconds) else { return true }
            // Whole seconds, except that a date a hair before a whole second can round up to it.
            let floor = seconds.rounded(.down)
            return a.timeIntervalSinceReferenceDate == floor || a.timeIntervalSinceReferenceDate == floor + 1
        case (.uid(let a), .dictionary(let entries)):
            return entries.count == 1 && entries["CF$UID"]?.uint64 == a
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.dictionary(let a), .dictionary(let b)):
            // Keys that differ only in line ends become one key, the later value winning.
            var expected: [String: Plist] = [:]
            for (key, value) in b { expected[lineEnds(key)] = value }
            return a.count == expected.count
                && a.allSatisfy { key, value in expected[key].map { matches(value, $0) } ?? false }
        default:
            return reread == original
        }
    }

    /// The text with "\r\n" and lone "\r" turned into "\n", as XML parsers read line ends.
    static func lineEnds(_ string: String) -> String {
        guard string.utf8.contains(0x0D) else { return string }
        var bytes: [UInt8] = []
        var previousWasReturn = false
        for byte in string.utf8 {
            if byte == 0x0A, previousWasReturn {
                previousWasReturn = false
                continue
            }
            previousWasReturn = byte == 0x0D
            bytes.append(previousWasReturn ? 0x0A : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
