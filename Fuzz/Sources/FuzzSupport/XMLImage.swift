import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What survives a trip through XML: dates keep whole seconds, every NaN reads back as NaN and
/// -0.0 as 0.0, strings keep every character (the writer spells the ones XML 1.0 forbids, and
/// "\r", as character references). The writer refuses what would not read back: dates outside
/// the years 1 to 9999 (NaN and infinities too), a dictionary whose one entry is `CF$UID`
/// and a non-negative integer (which would read back as a UID), and a key of more than 65,535
/// bytes once escaped that holds a character written as a reference XML 1.0 forbids.
public enum XMLImage {
    /// Seconds since 2001 of 0001-01-01T00:00:00Z and of 10000-01-01T00:00:00Z.
    static let calendarSeconds = -63_113_904_000.0..<252_423_993_600.0

    /// Whether the XML writer writes the value (else it refuses it, naming the key path).
    public static func canHold(_ value: Plist) -> Bool {
        switch value {
        case .date(let date): calendarSeconds.contains(date.timeIntervalSinceReferenceDate)
        case .array(let elements): elements.allSatisfy(canHold)
        case .dictionary(let entries):
            !(entries.count == 1 && entries.keys[0] == "CF$UID" && entries.values[0].uint64 != nil)
                && !entries.keys.contains(where: isLongKeyWithForbiddenCharacters)
                && entries.values.allSatisfy(canHold)
        default: true
        }
    }

    /// Whether `key`, escaped as the writer escapes it (counting 5 bytes for every reference
    /// to a control character), passes 65,535 bytes and holds a control character other than
    /// tab, line feed and carriage return, or U+FFFE or U+FFFF.
    static func isLongKeyWithForbiddenCharacters(_ key: String) -> Bool {
        var length = 0
        var forbidden = false
        for scalar in key.unicodeScalars {
            switch scalar.value {
            case 0x26, 0x3C, 0x3E: length += 5
            case 0x09, 0x0A: length += 1
            case 0x0D: length += 5
            case ..<0x20:
                length += 5
                forbidden = true
            case 0xFFFE, 0xFFFF:
                length += 8
                forbidden = true
            default: length += UTF8.width(scalar)
            }
        }
        return forbidden && length > 65_535
    }

    /// Whether `reread` is what XML makes of `original`.
    static func matches(_ reread: Plist, _ original: Plist) -> Bool {
        switch (reread, original) {
        case (.real(let a), .real(let b)):
            if b.isNaN { return a.isNaN }
            if b == 0 { return a == 0 && a.sign == .plus }
            return a.bitPattern == b.bitPattern
        case (.date(let a), .date(let b)):
            let seconds = b.timeIntervalSinceReferenceDate
            // Whole seconds, except that a date a hair before a whole second can round up to it.
            let floor = seconds.rounded(.down)
            return a.timeIntervalSinceReferenceDate == floor || a.timeIntervalSinceReferenceDate == floor + 1
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { matches(value, $0) } ?? false }
        default:
            return reread == original
        }
    }
}
