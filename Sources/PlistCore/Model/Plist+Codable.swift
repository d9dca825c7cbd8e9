#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A model can hold an arbitrary property-list subtree (`var extras: Plist`).
///
/// PlistKit's `PlistEncoder` and `PlistDecoder` store and read the subtree itself, as it is.
/// Other coders see the natural value: a string, a number, a Boolean, a date and data through
/// their own strategies, an array, a dictionary. What does not survive them: JSON has no dates
/// or data (they come back as a number and a string) and tells integers from reals only by
/// their text (`2.0` may come back as the integer 2); a UID is written as the dictionary
/// `{"CF$UID": n}`, as XML spells it, and comes back as that dictionary; two keys that differ
/// in their bytes but that `String` calls equal are one key of a keyed container.
extension Plist: Codable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .dictionary(let entries):
            var container = encoder.container(keyedBy: EntryKey.self)
            for (key, value) in entries { try container.encode(value, forKey: EntryKey(stringValue: key)) }
        case .uid(let reference):
            var container = encoder.container(keyedBy: EntryKey.self)
            try container.encode(reference, forKey: EntryKey(stringValue: "CF$UID"))
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .integer(let number):
                if let signed = number.int64 {
                    try container.encode(signed)
                } else {
                    try container.encode(number.bitPattern)
                }
            case .real(let number): try container.encode(number)
            case .bool(let flag): try container.encode(flag)
            case .date(let date): try container.encode(date)
            case .data(let data): try container.encode(data)
            case .array, .dictionary, .uid: break
            }
        }
    }

    /// The value the decoder holds: tried as a Boolean, an integer, a real, a string, a date and
    /// data, then as a dictionary and an array, in that order (so a JSON number never becomes a
    /// date).
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
                return
            }
            if let number = try? container.decode(Int64.self) {
                self = .integer(PlistInteger(number))
                return
            }
            if let number = try? container.decode(UInt64.self) {
                self = .integer(PlistInteger(number))
                return
            }
            if let number = try? container.decode(Double.self) {
                self = .real(number)
                return
            }
            if let text = try? container.decode(String.self) {
                self = .string(text)
                return
            }
            if let date = try? container.decode(Date.self) {
                self = .date(date)
                return
            }
            if let data = try? container.decode(Data.self) {
                self = .data(data)
                return
            }
        }
        if let container = try? decoder.container(keyedBy: EntryKey.self) {
            var entries = PlistDictionary(minimumCapacity: container.allKeys.count)
            for key in container.allKeys { entries[key.stringValue] = try container.decode(Plist.self, forKey: key) }
            self = .dictionary(entries)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [Plist] = []
            while !container.isAtEnd { elements.append(try container.decode(Plist.self)) }
            self = .array(elements)
            return
        }
        throw DecodingError.dataCorrupted(
            .init(codingPath: decoder.codingPath, debugDescription: "The value is not a property-list value."))
    }

    /// A dictionary's key as a coding key.
    private struct EntryKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
