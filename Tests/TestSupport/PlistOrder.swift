import OrderedCollections
public import PlistCore

extension Plist {
    /// True when `self` and `other` are equal and every dictionary lists its keys in the same order.
    public func isIdentical(to other: Plist) -> Bool {
        switch (self, other) {
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.keys.elementsEqual(b.keys) && zip(a.values, b.values).allSatisfy { $0.isIdentical(to: $1) }
        default:
            return self == other
        }
    }
}
