#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A Swift value that has a property-list form: strings, Booleans, integers of every width,
/// `Double`, `Float`, `Date`, `Data`, `URL`, `Plist` and `PlistDictionary`, and arrays and
/// string-keyed dictionaries of these, nested.
///
/// `Plist(_:)` makes the property-list value and ``Plist/as(_:)`` reads it back; PlistStore's
/// `Preferences.set(_:forKey:)` stores the same value.
public protocol PlistConvertible: Sendable {
    /// The property-list value of this value.
    var plistValue: Plist { get }
    /// The value `plist` holds, or `nil` when `plist` is not of this type's shape.
    init?(plistValue plist: Plist)
}

extension Plist {
    /// The property-list value of `value`: `Plist(version)` for a `String`, `Plist(tags)` for a
    /// `[String]`, `Plist(["width": 640])`.
    public init(_ value: some PlistConvertible) { self = value.plistValue }

    /// An `.array`: `Plist(["a", 1, true])`, a literal of mixed values.
    public init(_ elements: [Plist]) { self = .array(elements) }

    /// A `.dictionary` in the literal's order: `Plist(["name": "Ada", "year": 1843])`.
    public init(_ entries: PlistDictionary) { self = .dictionary(entries) }

    /// This value as a `T`, or `nil` when it is not of that shape: `plist.as([String].self)` is
    /// `nil` unless the value is an array whose elements are all strings. Integers read as any
    /// integer type they fit in and as `Double` and `Float`; reals read only as `Double` and
    /// `Float`.
    public func `as`<T: PlistConvertible>(_ type: T.Type) -> T? { T(plistValue: self) }
}

extension Plist: PlistConvertible {
    public var plistValue: Plist { self }
    public init?(plistValue plist: Plist) { self = plist }
}

extension PlistDictionary: PlistConvertible {
    public var plistValue: Plist { .dictionary(self) }
    public init?(plistValue plist: Plist) {
        guard case .dictionary(let entries) = plist else { return nil }
        self = entries
    }
}

extension String: PlistConvertible {
    public var plistValue: Plist { .string(self) }
    public init?(plistValue plist: Plist) {
        guard case .string(let value) = plist else { return nil }
        self = value
    }
}

extension Bool: PlistConvertible {
    public var plistValue: Plist { .bool(self) }
    public init?(plistValue plist: Plist) {
        guard case .bool(let value) = plist else { return nil }
        self = value
    }
}

extension Double: PlistConvertible {
    public var plistValue: Plist { .real(self) }
    /// A real, or an integer (rounded to the nearest `Double` past 2^53).
    public init?(plistValue plist: Plist) {
        switch plist {
        case .real(let value): self = value
        case .integer(let value): self = value.int64.map(Double.init) ?? value.uint64.map(Double.init) ?? 0
        default: return nil
        }
    }
}

/// Stored as the `Double` of the same value, as `UserDefaults` and Foundation's encoders store it.
extension Float: PlistConvertible {
    public var plistValue: Plist { .real(Double(self)) }
    /// A real or an integer, rounded to the nearest `Float`.
    public init?(plistValue plist: Plist) {
        guard let value = Double(plistValue: plist) else { return nil }
        self = Float(value)
    }
}

/// The integer types' one conversion: an `.integer` that fits.
extension FixedWidthInteger where Self: PlistConvertible {
    public var plistValue: Plist { .integer(PlistInteger(exactly: self)!) }
    public init?(plistValue plist: Plist) {
        guard case .integer(let value) = plist else { return nil }
        if let signed = value.int64, let exact = Self(exactly: signed) {
            self = exact
        } else if let unsigned = value.uint64, let exact = Self(exactly: unsigned) {
            self = exact
        } else {
            return nil
        }
    }
}

extension Int: PlistConvertible {}
extension Int8: PlistConvertible {}
extension Int16: PlistConvertible {}
extension Int32: PlistConvertible {}
extension Int64: PlistConvertible {}
extension UInt: PlistConvertible {}
extension UInt8: PlistConvertible {}
extension UInt16: PlistConvertible {}
extension UInt32: PlistConvertible {}
extension UInt64: PlistConvertible {}

extension Date: PlistConvertible {
    public var plistValue: Plist { .date(self) }
    public init?(plistValue plist: Plist) {
        guard case .date(let value) = plist else { return nil }
        self = value
    }
}

extension Data: PlistConvertible {
    public var plistValue: Plist { .data(self) }
    public init?(plistValue plist: Plist) {
        guard case .data(let value) = plist else { return nil }
        self = value
    }
}

/// Stored as its absolute string (a file URL as `file:///...`); read back from a string that
/// `URL(string:)` takes.
extension URL: PlistConvertible {
    public var plistValue: Plist { .string(absoluteString) }
    public init?(plistValue plist: Plist) {
        guard case .string(let text) = plist, let url = URL(string: text) else { return nil }
        self = url
    }
}

extension Array: PlistConvertible where Element: PlistConvertible {
    public var plistValue: Plist { .array(map(\.plistValue)) }
    /// An array whose elements all convert.
    public init?(plistValue plist: Plist) {
        guard case .array(let elements) = plist else { return nil }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let value = Element(plistValue: element) else { return nil }
            result.append(value)
        }
        self = result
    }
}

extension Dictionary: PlistConvertible where Key == String, Value: PlistConvertible {
    /// The entries, in the order of their keys' UTF-16 code units (a Swift dictionary has no
    /// order of its own; a binary file keeps the one it is given).
    public var plistValue: Plist {
        var entries = PlistDictionary(uniqueKeysWithValues: map { ($0.key, $0.value.plistValue) })
        entries.sort()
        return .dictionary(entries)
    }

    /// A dictionary whose values all convert. Two keys that differ in their bytes but that
    /// `String` calls equal (two spellings of `é`) are one key here: the later entry wins, as
    /// in Foundation's dictionaries.
    public init?(plistValue plist: Plist) {
        guard case .dictionary(let entries) = plist else { return nil }
        var result: [String: Value] = [:]
        result.reserveCapacity(entries.count)
        for (key, element) in entries {
            guard let value = Value(plistValue: element) else { return nil }
            result[key] = value
        }
        self = result
    }
}
