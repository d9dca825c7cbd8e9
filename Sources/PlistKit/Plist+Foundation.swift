import Foundation
import PlistCore

// The bridge needs Foundation itself (NSNumber, NSArray, NSDictionary), not only
// FoundationEssentials; PlistKit is the lowest module that may import it (PlistCore may not).
#if canImport(Darwin)
import CoreFoundation
#endif

extension Plist {
    /// The value of a Foundation property-list object, as `PropertyListSerialization`,
    /// `UserDefaults` and `JSONSerialization` give them: `String`, `NSNumber` and Swift's
    /// numbers and `Bool`, `Date`, `Data`, arrays and string-keyed dictionaries of these (and
    /// any `PlistConvertible` value). An `NSNumber` that is a Boolean (`CFBoolean` on Apple
    /// platforms) is a `.bool`; one that holds an integer is an `.integer`, a `Double` or
    /// `Float` a `.real`. A Swift dictionary's entries are put in the order of their keys'
    /// UTF-16 code units.
    /// - Throws: `PlistError` with code `unrepresentable` that names the key path of the first
    ///   value that is not a property-list type (`NSNull`, a URL inside `NSArray`, a non-string key).
    public init(propertyListObject object: Any) throws(PlistError) {
        var path: [String] = []
        self = try Self.bridge(object, &path)
    }

    /// The value as the Foundation object `PropertyListSerialization` writes and
    /// `UserDefaults.object(forKey:)` gives: `String`, `Int` (`UInt64` past `Int.max`), `Double`,
    /// `Bool`, `Date`, `Data`, `[Any]` and `[String: Any]`.
    ///
    /// Lossy in two places: two dictionary keys that differ in their bytes but that `String`
    /// calls equal are one key of the Swift dictionary (the later entry wins), and a UID, which
    /// Foundation has no public type for, is the dictionary `["CF$UID": number]`, as XML spells it.
    public var propertyListObject: Any {
        switch self {
        case .string(let text): text
        case .integer(let number): number.int.map { $0 as Any } ?? number.uint64.map { $0 as Any } ?? 0
        case .real(let number): number
        case .bool(let flag): flag
        case .date(let date): date
        case .data(let data): data
        case .array(let elements): elements.map(\.propertyListObject)
        case .dictionary(let entries):
            Dictionary(entries.map { ($0.key, $0.value.propertyListObject) }, uniquingKeysWith: { _, later in later })
        case .uid(let reference): ["CF$UID": reference]
        }
    }

    private static func bridge(_ object: Any, _ path: inout [String]) throws(PlistError) -> Plist {
        // An NSNumber first: on Apple platforms `as? Bool` and `as? Int` succeed on every one.
        if Swift.type(of: object) is AnyObject.Type, let number = object as? NSNumber { return number.plistValue }
        if let text = object as? String { return .string(text) }
        if let date = object as? Date { return .date(date) }
        if let data = object as? Data { return .data(data) }
        if let value = object as? any PlistConvertible { return value.plistValue }
        if let elements = object as? [Any] {
            var result: [Plist] = []
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.append(String(index))
                result.append(try bridge(element, &path))
                path.removeLast()
            }
            return .array(result)
        }
        if let entries = object as? [String: Any] {
            var result = PlistDictionary(minimumCapacity: entries.count)
            for (key, value) in entries.sorted(by: { KeyOrder.precedesInUTF16($0.key, $1.key) }) {
                path.append(key)
                result[key] = try bridge(value, &path)
                path.removeLast()
            }
            return .dictionary(result)
        }
        if let entries = object as? [AnyHashable: Any],
            let key = entries.keys.first(where: { !($0.base is String) })
        {
            path.append(String(describing: key.base))
            let type = "dictionary key of type \(Swift.type(of: key.base))"
            throw PlistError(
                .unrepresentable(
                    keyPath: PlistKeyPath(components: path).description, type: type, format: "a property list"), at: 0)
        }
        let type = String(describing: Swift.type(of: object))
        throw PlistError(
            .unrepresentable(
                keyPath: PlistKeyPath(components: path).description, type: type, format: "a property list"),
            at: 0)
    }
}

extension NSNumber {
    /// A Boolean, an integer or a real, by what the number holds.
    fileprivate var plistValue: Plist {
        #if canImport(Darwin)
        if CFGetTypeID(self) == CFBooleanGetTypeID() { return .bool(boolValue) }
        #endif
        switch unsafe String(cString: objCType) {
        #if !canImport(Darwin)
        case "c", "B": return .bool(boolValue)
        #endif
        case "d", "f": return .real(doubleValue)
        case "Q", "L", "I", "S", "C": return .integer(PlistInteger(uint64Value))
        default: return .integer(PlistInteger(int64Value))
        }
    }
}
