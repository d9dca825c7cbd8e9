import PlistKit
import PlistRepository

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// How `diff` and `merge` write the library's changes and conflicts, for people and as JSON.

extension [PlistPathStep] {
    /// The path as plistconv writes key paths (dots between components, `\.` a dot in a key),
    /// or "(top level)" for the empty path; control characters escaped, so that a key cannot add
    /// a line to a report.
    var keyPathText: String {
        isEmpty ? "(top level)" : PlistKeyPath(steps: self).description.escapingControlCharacters
    }
}

extension PlistPathStep {
    /// The step as JSON: a key as a string, an index as a number.
    var plist: Plist {
        switch self {
        case .key(let key): .string(key)
        case .index(let index): .integer(PlistInteger(Int64(index)))
        }
    }
}

extension PlistDiff.Change {
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

extension PlistMerge.Conflict {
    /// One line for standard error (each value cut after 200 characters).
    var line: String {
        switch reason {
        case .bothReordered: return "conflict at \(path.keyPathText): both sides reordered the array differently"
        case .removedButReferenced(let referrer):
            return "conflict at \(path.keyPathText): one side removed this object, but \(referrer.keyPathText) "
                + "refers to it; it is kept"
        case .bothChanged:
            func shown(_ value: Plist?) -> String {
                guard let value else { return "(absent)" }
                let text = InlineValue.text(value)
                guard text.count > 200 else { return text }
                return text.prefix(200) + "… (\(text.count - 200) more characters)"
            }
            return "conflict at \(path.keyPathText): ours \(shown(ours)), theirs \(shown(theirs)), base \(shown(base))"
        }
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
