import OrderedCollections
import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What survives a trip through XML: dates keep whole seconds, every NaN reads back as NaN and
/// -0.0 as 0.0, strings keep every character (the writer spells the ones XML 1.0 forbids, and
/// "\r", as character references). The writer refuses what would not read back: dates outside
/// the years 1 to 9999 (NaN and infinities too), and a dictionary whose one entry is `CF$UID`
/// and a non-negative integer (which would read back as a UID).
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
                && entries.values.allSatisfy(canHold)
        default: true
        }
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
