#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
extension Plist: Hashable {
    /// True when both hold the same content: reals and dates by exact bits, strings and keys by
    /// their exact UTF-8 bytes, dictionaries regardless of key order.
    public static func == (lhs: Plist, rhs: Plist) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): ExactKey(a) == ExactKey(b)
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.bool(let a), .bool(let b)): a == b
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a == b
        case (.uid(let a), .uid(let b)): a == b
        default: false
        }
    }

    /// Hashes the content consistently with `==` (dictionary entries in any order).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value):
            hasher.combine(0 as UInt8)
            hasher.combine(ExactKey(value))
        case .integer(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .real(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value.bitPattern)
        case .bool(let value):
            hasher.combine(3 as UInt8)
            hasher.combine(value)
        case .date(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let value):
            hasher.combine(5 as UInt8)
            hasher.combine(value)
        case .array(let value):
            hasher.combine(6 as UInt8)
            hasher.combine(value)
        case .dictionary(let value):
            hasher.combine(7 as UInt8)
            hasher.combine(value)
        case .uid(let value):
            hasher.combine(8 as UInt8)
            hasher.combine(value)
        }
    }
}
