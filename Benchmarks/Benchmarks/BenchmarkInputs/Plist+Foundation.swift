import Foundation
import PlistKit

extension Plist {
    /// The same content as a Foundation object graph, ready for `PropertyListSerialization`.
    /// Foundation has no public UID type, so a `.uid(n)` becomes `["CF$UID": n]`.
    package var foundationObject: NSObject {
        switch self {
        case .string(let value): NSString(string: value)
        case .integer(let value): value.int64.map { NSNumber(value: $0) } ?? NSNumber(value: value.bitPattern)
        case .real(let value): NSNumber(value: value)
        case .bool(let value): NSNumber(value: value)
        case .date(let value): NSDate(timeIntervalSinceReferenceDate: value.timeIntervalSinceReferenceDate)
        case .data(let value): NSData(data: value)
        case .array(let elements): NSArray(array: elements.map(\.foundationObject))
        case .dictionary(let entries):
            NSDictionary(objects: entries.values.map(\.foundationObject), forKeys: entries.keys.map(NSString.init))
        case .uid(let value): NSDictionary(object: NSNumber(value: value), forKey: NSString(string: "CF$UID"))
        }
    }

    /// This value with every `.uid(n)` replaced by `["CF$UID": n]`, as Foundation writes it.
    package var replacingUIDs: Plist {
        switch self {
        case .uid(let value): ["CF$UID": Plist(value)]
        case .array(let elements): .array(elements.map(\.replacingUIDs))
        case .dictionary(let entries): .dictionary(entries.mapValues(\.replacingUIDs))
        default: self
        }
    }
}
