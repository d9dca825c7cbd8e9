#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A property-list value: the one tree every reader produces and every writer consumes.
///
/// Dictionaries keep their key order. Two values are equal when they hold the same content:
/// reals and dates compare by their exact bits (so `-0.0 != 0.0` and NaN equals NaN), strings
/// compare by their exact UTF-8 bytes, and dictionaries compare regardless of key order.
public enum Plist: Sendable {
    /// A string.
    case string(String)
    /// An integer: every `Int64` and every `UInt64`.
    case integer(PlistInteger)
    /// A 64-bit floating-point number.
    case real(Double)
    /// A Boolean.
    case bool(Bool)
    /// A date (an exact number of seconds since 2001-01-01 00:00:00 UTC).
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// An ordered list of values.
    case array([Plist])
    /// String keys mapped to values, in the order they were read or inserted; keys are told
    /// apart by their exact spelling (see `PlistDictionary`).
    case dictionary(PlistDictionary)
    /// A keyed-archiver object reference (`CF$UID`).
    case uid(UInt64)
}

extension Plist {
    /// The string, if this is a `.string`.
    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The integer, if this is an `.integer`.
    public var integer: PlistInteger? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The integer as an `Int`, if this is an `.integer` that fits.
    public var int: Int? { integer?.int }

    /// The integer as an `Int64`, if this is an `.integer` that fits.
    public var int64: Int64? { integer?.int64 }

    /// The integer as a `UInt64`, if this is a non-negative `.integer`.
    public var uint64: UInt64? { integer?.uint64 }

    /// The number, if this is a `.real`.
    public var double: Double? {
        if case .real(let value) = self { value } else { nil }
    }

    /// The Boolean, if this is a `.bool`.
    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The date, if this is a `.date`.
    public var date: Date? {
        if case .date(let value) = self { value } else { nil }
    }

    /// The bytes, if this is a `.data`.
    public var data: Data? {
        if case .data(let value) = self { value } else { nil }
    }

    /// The elements, if this is an `.array`.
    public var array: [Plist]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The entries, if this is a `.dictionary`.
    public var dictionary: PlistDictionary? {
        if case .dictionary(let value) = self { value } else { nil }
    }

    /// The object reference, if this is a `.uid`.
    public var uid: UInt64? {
        if case .uid(let value) = self { value } else { nil }
    }

    /// The value for `key` in a dictionary; `nil` when absent or when this is not a dictionary.
    ///
    /// Setting a value on a dictionary adds or replaces the entry (an existing key keeps its
    /// position); setting `nil` removes it, and does nothing on other values (so that a chain
    /// through a missing value does nothing). Setting a value on anything but a dictionary is a
    /// programming error and traps.
    public subscript(key: String) -> Plist? {
        get {
            if case .dictionary(let entries) = self { entries[key] } else { nil }
        }
        set {
            guard case .dictionary(var entries) = self else {
                if newValue == nil { return }
                preconditionFailure("Plist: setting key \"\(key)\" on a value that is not a dictionary")
            }
            self = .string("")  // release the payload so `entries` is uniquely referenced
            entries[key] = newValue
            self = .dictionary(entries)
        }
    }

    /// The element at `index` in an array; `nil` when out of range or when this is not an array.
    ///
    /// Setting a value replaces the element; setting `nil` removes it (the later elements move
    /// down), and does nothing out of range or on other values. Setting a value at an index out
    /// of range, or on anything but an array, is a programming error and traps, as `Array`
    /// does. In a chain such as `info["CFBundleURLTypes"]?[0]?["CFBundleURLSchemes"]?[0] =
    /// "myapp"`, a missing key or an index out of range ends the chain: the assignment does
    /// nothing.
    public subscript(index: Int) -> Plist? {
        get {
            guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
            return elements[index]
        }
        set {
            guard case .array(var elements) = self, elements.indices.contains(index) else {
                if newValue == nil { return }
                guard case .array = self else {
                    preconditionFailure("Plist: setting index \(index) on a value that is not an array")
                }
                preconditionFailure("Plist: index \(index) out of range")
            }
            self = .string("")  // release the payload so `elements` is uniquely referenced
            if let newValue { elements[index] = newValue } else { elements.remove(at: index) }
            self = .array(elements)
        }
    }

    /// The number of elements of an array or entries of a dictionary; `nil` for other values.
    public var count: Int? {
        switch self {
        case .array(let elements): elements.count
        case .dictionary(let entries): entries.count
        default: nil
        }
    }
}
