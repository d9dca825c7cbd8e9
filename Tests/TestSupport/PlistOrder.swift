public import PlistCore

extension Plist {
    /// The value with every UID replaced by the integer it holds (for formats and forms that
    /// hold no UIDs).
    public var replacingUIDsWithIntegers: Plist {
        switch self {
        case .uid(let uid): .integer(PlistInteger(uid))
        case .array(let elements): .array(elements.map(\.replacingUIDsWithIntegers))
        case .dictionary(let entries): .dictionary(entries.mapValues(\.replacingUIDsWithIntegers))
        default: self
        }
    }

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

extension Plist {
    /// Where `self` and `other` first differ (a key path and both sides), or `nil` when identical.
    public func firstDifference(from other: Plist, at path: [String] = []) -> String? {
        let place = path.isEmpty ? "the top level" : path.joined(separator: ".")
        switch (self, other) {
        case (.array(let a), .array(let b)):
            if a.count != b.count { return "\(place): \(a.count) elements vs \(b.count)" }
            for (index, (x, y)) in zip(a, b).enumerated() {
                if let difference = x.firstDifference(from: y, at: path + [String(index)]) { return difference }
            }
            return nil
        case (.dictionary(let a), .dictionary(let b)):
            for (x, y) in zip(a.keys, b.keys) where !x.utf8.elementsEqual(y.utf8) {
                return "\(place): key \(x.debugDescription) vs \(y.debugDescription)"
            }
            if a.count != b.count { return "\(place): \(a.count) keys vs \(b.count)" }
            for (key, (x, y)) in zip(a.keys, zip(a.values, b.values)) {
                if let difference = x.firstDifference(from: y, at: path + [key.debugDescription]) { return difference }
            }
            return nil
        default:
            return self == other ? nil : "\(place): \(self) vs \(other)"
        }
    }
}
