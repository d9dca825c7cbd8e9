import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One step of a path into a property list: a dictionary key or an array index.
enum PathComponent: Equatable {
    case key(String)
    case index(Int)

    /// The component as a key path writes it (an index as its number).
    var text: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }

    /// The component as JSON: a key as a string, an index as a number.
    var plist: Plist {
        switch self {
        case .key(let key): .string(key)
        case .index(let index): .integer(PlistInteger(Int64(index)))
        }
    }
}

extension [PathComponent] {
    /// The path as plistconv writes key paths (dots between components, `\.` a dot in a key),
    /// or "(top level)" for the empty path; control characters escaped, so that a key cannot add
    /// a line to a report.
    var keyPathText: String {
        isEmpty ? "(top level)" : PlistKeyPath(components: map(\.text)).description.escapingControlCharacters
    }
}

/// A difference between two property lists at one key path.
struct PlistChange: Equatable {
    enum Kind: String {
        /// A key or an array element that only the new value has.
        case added
        /// A key or an array element that only the old value has.
        case removed
        /// A value of the same type that differs.
        case changed
        /// A value whose type differs.
        case retyped
    }

    var kind: Kind
    /// Where: for `added`, the place in the new value; otherwise in the old one.
    var path: [PathComponent]
    var old: Plist?
    var new: Plist?
}

/// The differences between two property lists, by key path.
///
/// Dictionaries are compared key by key. Arrays are aligned (`SequenceAlignment`): elements
/// that stay are not reported, so an insertion is one `added` element, not a change of every
/// element after it. Between two kept elements, removed and added elements are paired in order
/// and each pair is compared as a value (a dictionary's changes are reported inside it); the
/// ones left over are removed or added.
enum PlistDiff {
    /// The changes that turn `old` into `new`, in document order; empty when they are equal.
    static func changes(from old: Plist, to new: Plist) -> [PlistChange] {
        var changes: [PlistChange] = []
        compare(old, new, path: [], into: &changes)
        return changes
    }

    private static func compare(_ old: Plist, _ new: Plist, path: [PathComponent], into changes: inout [PlistChange]) {
        if old == new { return }
        switch (old, new) {
        case (.dictionary(let oldEntries), .dictionary(let newEntries)):
            for (key, oldValue) in oldEntries {
                if let newValue = newEntries[key] {
                    compare(oldValue, newValue, path: path + [.key(key)], into: &changes)
                } else {
                    changes.append(PlistChange(kind: .removed, path: path + [.key(key)], old: oldValue))
                }
            }
            for (key, newValue) in newEntries where oldEntries[key] == nil {
                changes.append(PlistChange(kind: .added, path: path + [.key(key)], new: newValue))
            }
        case (.array(let oldElements), .array(let newElements)):
            compareArrays(oldElements, newElements, path: path, into: &changes)
        default:
            let kind: PlistChange.Kind = old.typeName == new.typeName ? .changed : .retyped
            changes.append(PlistChange(kind: kind, path: path, old: old, new: new))
        }
    }

    private static func compareArrays(
        _ old: [Plist], _ new: [Plist], path: [PathComponent], into changes: inout [PlistChange]
    ) {
        var oldIndex = 0
        var newIndex = 0
        let end = SequenceAlignment.Match(old: old.count, new: new.count)
        for match in SequenceAlignment.matches(old, new) + [end] {
            let removed = match.old - oldIndex
            let added = match.new - newIndex
            for offset in 0..<min(removed, added) {
                compare(
                    old[oldIndex + offset], new[newIndex + offset], path: path + [.index(oldIndex + offset)],
                    into: &changes)
            }
            for offset in min(removed, added)..<max(removed, added) {
                if offset < removed {
                    let index = oldIndex + offset
                    changes.append(PlistChange(kind: .removed, path: path + [.index(index)], old: old[index]))
                } else {
                    let index = newIndex + offset
                    changes.append(PlistChange(kind: .added, path: path + [.index(index)], new: new[index]))
                }
            }
            oldIndex = match.old + 1
            newIndex = match.new + 1
        }
    }
}

extension PlistChange {
    /// One line for people: `changed  CFBundleVersion: "41" → "42"`.
    var line: String {
        let label = kind.rawValue + String(repeating: " ", count: 8 - kind.rawValue.count)
        let place = label + " " + path.keyPathText + ": "
        switch kind {
        case .added: return place + InlineValue.text(new!)
        case .removed: return place + InlineValue.text(old!)
        case .changed:
            let (before, after) = (InlineValue.text(old!), InlineValue.text(new!))
            guard before == after else { return place + before + " → " + after }
            // Different values that print alike (NaNs with other payloads, dates a fraction of
            // a second apart) are shown exactly.
            return place + InlineValue.exactText(old!) + " → " + InlineValue.exactText(new!)
        case .retyped:
            return place + old!.typeName + " " + InlineValue.text(old!) + " → " + new!.typeName + " "
                + InlineValue.text(new!)
        }
    }

    /// The change as a dictionary for `--format json`: kind, path (keys as strings, indexes as
    /// numbers), and the old and new values where there are some.
    var plist: Plist {
        var pairs: [(String, Plist)] = [("kind", .string(kind.rawValue)), ("path", .array(path.map(\.plist)))]
        if let old { pairs.append(("old", old)) }
        if let new { pairs.append(("new", new)) }
        return .dictionary(.init(uniqueKeysWithValues: pairs))
    }
}

/// A value on one line: strings quoted, containers as `[a, b]` and `{"key" => value}`, other
/// values as `print` shows them.
enum InlineValue {
    static func text(_ value: Plist) -> String {
        switch value {
        case .string(let string): return HumanReadable.quoted(string)
        case .data(let data): return HumanReadable.dataDescription([UInt8](data))
        case .uid(let uid): return "<CF$UID \(uid)>"
        case .array(let elements): return "[" + elements.map(text).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            return "{" + entries.map { HumanReadable.quoted($0.key) + " => " + text($0.value) }.joined(separator: ", ")
                + "}"
        default: return Scalar.text(of: value)
        }
    }

    /// `text(_:)` with what it rounds away: a real's bits, a date's seconds since 2001 in full.
    static func exactText(_ value: Plist) -> String {
        switch value {
        case .real(let real): return text(value) + " (bits 0x" + String(real.bitPattern, radix: 16) + ")"
        case .date(let date): return text(value) + " (\(date.timeIntervalSinceReferenceDate) s since 2001)"
        default: return text(value)
        }
    }
}
