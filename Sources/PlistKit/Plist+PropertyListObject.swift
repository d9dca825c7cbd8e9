#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The way out to Foundation's `Any` needs only FoundationEssentials' types (`Preferences`'
// getters give it); the way in, `Plist(propertyListObject:)`, needs `NSNumber` and is in
// PlistFoundation.

extension Plist {
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
}
