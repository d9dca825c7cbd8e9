import OrderedCollections
public import PlistCore

extension Plist {
    /// True when `self` and `other` are equal, every dictionary lists its keys in the same order,
    /// and every key has the same UTF-8 bytes in both (`String.==` alone would take "\u{E9}" and
    /// "e\u{301}" for the same key).
    public func isIdentical(to other: Plist) -> Bool {
        switch (self, other) {
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count
                && zip(a.keys, b.keys).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
                && zip(a.values, b.values).allSatisfy { $0.isIdentical(to: $1) }
        default:
            return self == other
        }
    }
}
