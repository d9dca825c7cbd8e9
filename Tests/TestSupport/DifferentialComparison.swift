import OrderedCollections
public import PlistCore

extension Plist {
    /// True when `self` and `other` are identical as `isIdentical(to:)` defines it (equal, every
    /// dictionary listing its keys in the same order) and, moreover, every dictionary key has the
    /// same UTF-8 bytes in both.
    ///
    /// `isIdentical(to:)` compares keys with `String.==`, which treats canonically equivalent
    /// spellings ("\u{E9}" and "e\u{301}") as equal; this does not.
    public func isIdenticalByBytes(to other: Plist) -> Bool {
        switch (self, other) {
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isIdenticalByBytes(to: $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count
                && zip(a.keys, b.keys).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
                && zip(a.values, b.values).allSatisfy { $0.isIdenticalByBytes(to: $1) }
        default:
            return self == other
        }
    }
}
