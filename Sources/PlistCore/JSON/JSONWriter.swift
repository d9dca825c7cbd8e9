#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a `Plist` as JSON in UTF-8: compact (`{"a":[1,2.5]}`) or indented as plutil's `-r`
/// (two spaces, `"key" : value`, empty containers as `{}` and `[]`).
///
/// Integers are written exactly (the whole `Int64...UInt64` range); reals in the shortest form
/// that reads back to the same `Double`, always with a `.` or an exponent so they read back as
/// reals (`1.0`, `1e+100`, `-0.0`). Strings escape `"`, `\` and control characters (`\n`, `\t`,
/// `\u001f`...); everything else is UTF-8 as it is. Dates, data, UIDs and non-finite reals are
/// written as `JSONValues` says (see `JSONTag` for the typed forms).
enum JSONWriter {
    static func write(_ value: Plist, options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        var writer = JSONTextWriter(
            options: options,
            out: try TextOutput(for: value, indentation: options.indentsJSON ? 2 : 0, options: options))
        try writer.value(value, depth: 0)
        if options.indentsJSON { writer.out.append(0x0A) }
        return writer.out.bytes
    }
}

private struct JSONTextWriter {
    let options: PlistWriteOptions
    var out: TextOutput
    var path: [String] = []
    var keyOrders = KeyOrders()

    mutating func value(_ value: Plist, depth: Int) throws(PlistError) {
        try out.reserve((options.indentsJSON ? 2 * depth : 0) + Self.leastSize(of: value))
        switch value {
        case .string(let string): self.string(string)
        case .integer(let integer): out.append(integer.description)
        case .bool(let bool): out.append(bool ? "true" : "false")
        case .real(let real):
            if real.isFinite {
                let text = real.description
                out.append(text)
                if !text.utf8.contains(where: { $0 == 0x2E || $0 == 0x65 }) { out.append(".0") }
            } else {
                switch options.jsonValues {
                case .strict: throw unrepresentable(value)
                case .lossy: self.string(real.isNaN ? "NaN" : real < 0 ? "-Infinity" : "Infinity")
                case .typed: tagged(.real) { $0.string(JSONTag.name(ofNonFinite: real)) }
                }
            }
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            switch options.jsonValues {
            case .strict: throw unrepresentable(value)
            case .lossy:
                if let text = JSONTag.iso8601(seconds) ?? ISO8601.string(secondsSinceReference: seconds, fraction: true)
                {
                    self.string(text)
                } else {
                    try self.value(.real(seconds), depth: depth)  // outside the years 1...9999
                }
            case .typed:
                if let text = JSONTag.iso8601(seconds) {
                    tagged(.date) { $0.string(text) }
                } else if seconds.isFinite {
                    tagged(.date) { $0.out.append(seconds.description) }
                } else {
                    tagged(.date) { $0.string(JSONTag.name(ofNonFinite: seconds)) }
                }
            }
        case .data(let data):
            switch options.jsonValues {
            case .strict: throw unrepresentable(value)
            case .lossy: self.string(data.base64EncodedString())
            case .typed: tagged(.data) { $0.string(data.base64EncodedString()) }
            }
        case .uid(let uid):
            switch options.jsonValues {
            case .strict: throw unrepresentable(value)
            case .lossy: out.append(String(uid))
            case .typed: tagged(.uid) { $0.out.append(String(uid)) }
            }
        case .array(let elements):
            try out.enter(depth: depth)
            guard !elements.isEmpty else { return out.append("[]") }
            out.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(",") }
                newline(depth + 1)
                path.append(String(index))
                try self.value(element, depth: depth + 1)
                path.removeLast()
            }
            newline(depth)
            out.append("]")
        case .dictionary(let entries):
            try out.enter(depth: depth)
            guard !entries.isEmpty else { return out.append("{}") }
            let order = order(entries)
            let firstKey = entries.keys[order[0]]
            if options.jsonValues == .strict, JSONTag(rawValue: firstKey) != nil {
                // Plain JSON has no way to say that this is no typed value: the reader would take it for one.
                let keyPath = PlistKeyPath(components: path).description
                let type =
                    "dictionary whose first key is \(firstKey.debugDescription) (which reads back as a typed value)"
                throw PlistError(.unrepresentable(keyPath: keyPath, type: type, format: "strict JSON"), at: 0)
            }
            if options.jsonValues == .typed, JSONTag(rawValue: firstKey) != nil {
                // A real dictionary that would read as a typed value: its first key is a tag.
                out.append("{")
                newline(depth + 1)
                self.string(JSONTag.dictionary.rawValue)
                out.append(options.indentsJSON ? " : " : ":")
                try members(entries, order: order, depth: depth + 1)
                newline(depth)
                out.append("}")
            } else {
                try members(entries, order: order, depth: depth)
            }
        }
    }

    mutating func members(_ entries: PlistDictionary, order: [Int], depth: Int) throws(PlistError) {
        out.append("{")
        var first = true
        for index in order {
            let (key, element) = entries[index]
            try out.reserve((options.indentsJSON ? 2 * depth + 2 : 0) + key.utf8.count + 4)
            if !first { out.append(",") }
            first = false
            newline(depth + 1)
            string(key)
            out.append(options.indentsJSON ? " : " : ":")
            path.append(key)
            try value(element, depth: depth + 1)
            path.removeLast()
        }
        newline(depth)
        out.append("}")
    }

    mutating func order(_ entries: PlistDictionary) -> [Int] {
        guard options.sortsKeys, let order = keyOrders.sortedOrder(of: entries) else {
            return Array(entries.indices)
        }
        return order
    }

    mutating func tagged(_ tag: JSONTag, _ content: (inout JSONTextWriter) -> Void) {
        out.append("{")
        string(tag.rawValue)
        out.append(options.indentsJSON ? " : " : ":")
        content(&self)
        out.append("}")
    }

    func unrepresentable(_ value: Plist) -> PlistError {
        let keyPath = PlistKeyPath(components: path).description
        return PlistError(.unrepresentable(keyPath: keyPath, type: value.typeName, format: "JSON"), at: 0)
    }

    // MARK: Text

    /// The fewest bytes `value` takes: its quotes and text, its base64, or a bracket or digit.
    static func leastSize(of value: Plist) -> Int {
        switch value {
        case .string(let string): string.utf8.count + 2
        case .data(let data): data.count / 3 * 4 + 2
        default: 1
        }
    }

    mutating func newline(_ depth: Int) {
        guard options.indentsJSON else { return }
        out.append(0x0A)
        out.append(0x20, count: 2 * depth)
    }

    mutating func string(_ string: String) {
        out.appendQuoted(string, .json)
    }
}
