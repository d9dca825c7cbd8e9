import Foundation
import PlistCore
public import PlistKit

// The way in needs Foundation itself (NSNumber, NSArray, NSDictionary), not only
// FoundationEssentials: it lives here, so that PlistKit, PlistStore and plistconv do not link
// Foundation. The way out, `propertyListObject`, needs only FoundationEssentials' types and
// stays in PlistKit.
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
