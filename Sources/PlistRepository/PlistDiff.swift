public import PlistKit

/// The differences between two property lists, by key path: a collection of changes, in
/// document order, empty when the two are equal.
///
/// Dictionaries are compared key by key. Arrays are aligned as `diff` aligns lines: elements
/// that stay are not reported, so an insertion is one `added` element, not a change of every
/// element after it. Between two kept elements, removed and added elements are paired in order
/// and each pair is compared as a value (a dictionary's changes are reported inside it); the
/// ones left over are removed or added.
///
/// ```swift
/// let diff = PlistDiff(from: old, to: new)
/// for change in diff { print(change.kind, change.keyPath) }   // changed CFBundleVersion
/// ```
public struct PlistDiff: RandomAccessCollection, Hashable, Sendable {
    /// A difference at one place.
    public struct Change: Hashable, Sendable {
        /// What happened to the value at `path`.
        public enum Kind: String, Hashable, Sendable {
            /// A key or an array element that only the new value has.
            case added
            /// A key or an array element that only the old value has.
            case removed
            /// A value of the same type that differs.
            case changed
            /// A value whose type differs.
            case retyped
        }

        public let kind: Kind
        /// Where: for `added`, the place in the new value; otherwise in the old one.
        public let path: [PlistPathStep]
        /// The old value; nil when `added`.
        public let old: Plist?
        /// The new value; nil when `removed`.
        public let new: Plist?

        package init(kind: Kind, path: [PlistPathStep], old: Plist? = nil, new: Plist? = nil) {
            (self.kind, self.path, self.old, self.new) = (kind, path, old, new)
        }

        /// `path` as a `PlistKeyPath` (an index as its number), to print or to look the value up.
        public var keyPath: PlistKeyPath { PlistKeyPath(steps: path) }
    }

    private let changes: [Change]

    /// The changes that turn `old` into `new`.
    public init(from old: Plist, to new: Plist) {
        var changes: [Change] = []
        Self.compare(old, new, path: [], into: &changes)
        self.changes = changes
    }

    public var startIndex: Int { changes.startIndex }
    public var endIndex: Int { changes.endIndex }
    public subscript(position: Int) -> Change { changes[position] }

    private static func compare(_ old: Plist, _ new: Plist, path: [PlistPathStep], into changes: inout [Change]) {
        if old == new { return }
        switch (old, new) {
        case (.dictionary(let oldEntries), .dictionary(let newEntries)):
            for (key, oldValue) in oldEntries {
                if let newValue = newEntries[key] {
                    compare(oldValue, newValue, path: path + [.key(key)], into: &changes)
                } else {
                    changes.append(Change(kind: .removed, path: path + [.key(key)], old: oldValue))
                }
            }
            for (key, newValue) in newEntries where oldEntries[key] == nil {
                changes.append(Change(kind: .added, path: path + [.key(key)], new: newValue))
            }
        case (.array(let oldElements), .array(let newElements)):
            compareArrays(oldElements, newElements, path: path, into: &changes)
        default:
            let kind: Change.Kind = old.typeName == new.typeName ? .changed : .retyped
            changes.append(Change(kind: kind, path: path, old: old, new: new))
        }
    }

    private static func compareArrays(
        _ old: [Plist], _ new: [Plist], path: [PlistPathStep], into changes: inout [Change]
    ) {
        var oldIndex = 0
        var newIndex = 0
        let end = SequenceAlignment.Match(old: old.count, new: new.count)
        for match in SequenceAlignment.matches(old, new) + [end] {
            let removed = match.old - oldIndex
            let added = match.new - newIndex
            for offset in 0..<Swift.min(removed, added) {
                compare(
                    old[oldIndex + offset], new[newIndex + offset], path: path + [.index(oldIndex + offset)],
                    into: &changes)
            }
            for offset in Swift.min(removed, added)..<Swift.max(removed, added) {
                if offset < removed {
                    let index = oldIndex + offset
                    changes.append(Change(kind: .removed, path: path + [.index(index)], old: old[index]))
                } else {
                    let index = newIndex + offset
                    changes.append(Change(kind: .added, path: path + [.index(index)], new: new[index]))
                }
            }
            oldIndex = match.old + 1
            newIndex = match.new + 1
        }
    }
}

extension PlistKeyPath {
    /// The path of `steps`: keys as they are, indexes as their numbers.
    package init(steps: [PlistPathStep]) {
        self.init(
            components: steps.map { step in
                switch step {
                case .key(let key): key
                case .index(let index): String(index)
                }
            })
    }
}
