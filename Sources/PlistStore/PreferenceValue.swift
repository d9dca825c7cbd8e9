public import PlistKit

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A Swift value that ``Preferences/set(_:forKey:)-(Value?,_)`` stores: strings, integers of
/// every width, `Double`, `Float`, `Bool`, `Date`, `Data`, `URL`, `Plist`, and arrays and
/// string-keyed dictionaries of these.
public protocol PreferenceValue: Sendable {
    /// The property-list value stored for it.
    var plistValue: Plist { get }
}

extension Plist: PreferenceValue {
    public var plistValue: Plist { self }
}

extension String: PreferenceValue {
    public var plistValue: Plist { .string(self) }
}

extension Bool: PreferenceValue {
    public var plistValue: Plist { .bool(self) }
}

extension Double: PreferenceValue {
    public var plistValue: Plist { .real(self) }
}

/// Stored as the `Double` of the same value, as `UserDefaults` stores it.
extension Float: PreferenceValue {
    public var plistValue: Plist { .real(Double(self)) }
}

extension Int: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(self)) }
}

extension Int8: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(Int64(self))) }
}

extension Int16: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(Int64(self))) }
}

extension Int32: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(Int64(self))) }
}

extension Int64: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(self)) }
}

extension UInt: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(UInt64(self))) }
}

extension UInt8: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(UInt64(self))) }
}

extension UInt16: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(UInt64(self))) }
}

extension UInt32: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(UInt64(self))) }
}

extension UInt64: PreferenceValue {
    public var plistValue: Plist { .integer(PlistInteger(self)) }
}

extension Date: PreferenceValue {
    public var plistValue: Plist { .date(self) }
}

extension Data: PreferenceValue {
    public var plistValue: Plist { .data(self) }
}

/// Stored as its absolute string (a file URL as `file:///...`); ``Preferences/url(forKey:)``
/// reads it back.
extension URL: PreferenceValue {
    public var plistValue: Plist { .string(absoluteString) }
}

extension Array: PreferenceValue where Element: PreferenceValue {
    public var plistValue: Plist { .array(map(\.plistValue)) }
}

extension Dictionary: PreferenceValue where Key == String, Value: PreferenceValue {
    /// The entries, in the order of their keys' UTF-16 code units (a Swift dictionary has no
    /// order of its own; the binary file keeps the one it is given).
    public var plistValue: Plist {
        let sorted = sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
        return .dictionary(.init(uniqueKeysWithValues: sorted.map { ($0.key, $0.value.plistValue) }))
    }
}

extension Plist {
    /// The Swift value Foundation's `UserDefaults.object(forKey:)` gives for this value:
    /// `String`, `Int` (`UInt64` past `Int.max`), `Double`, `Bool`, `Date`, `Data`, `[Any]`
    /// and `[String: Any]`; a UID stays a `Plist`.
    var foundationValue: Any {
        switch self {
        case .string(let text): text
        case .integer(let number): number.int.map { $0 as Any } ?? number.uint64.map { $0 as Any } ?? self
        case .real(let number): number
        case .bool(let flag): flag
        case .date(let date): date
        case .data(let data): data
        case .array(let elements): elements.map(\.foundationValue)
        case .dictionary(let entries):
            // A Swift dictionary, as Foundation gives: two spellings of one character are one
            // key there (the later entry wins); the tree and the file keep both.
            Dictionary(entries.map { ($0.key, $0.value.foundationValue) }, uniquingKeysWith: { _, later in later })
        case .uid: self
        }
    }
}
