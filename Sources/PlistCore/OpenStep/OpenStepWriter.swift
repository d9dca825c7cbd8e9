#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a `Plist` as OpenStep text (or as a `.strings` file), in UTF-8.
///
/// Layout: Xcode's. One entry or element per line, nested values one tab deeper, `key = value;`
/// in dictionaries, every array element followed by a comma (CoreFoundation, Xcode and GNUstep
/// read the trailing comma), empty containers as `{\n}` and `(\n)` with the closing bracket
/// indented, data as `<0fbd7777 0102>` (groups of four bytes), a final newline. Strings are quoted
/// only when they must be: when empty, holding a character outside `[A-Za-z0-9_$/:.-]`, or `//`
/// or `/*` (which start comments). Inside
/// quotes `\\`, `\"`, `\n`, `\t`, `\r`, `\a`, `\b`, `\f` and `\v` are escaped, other control
/// characters written `\Uxxxx`, and everything else (non-ASCII included) kept as UTF-8.
///
/// Plain OpenStep holds strings, data, arrays and dictionaries only. `OpenStepValues` says what
/// becomes of integers, reals, Booleans, dates and UIDs: an error naming the key path, strings,
/// or GNUstep's typed values `<*I12>`, `<*R0.5>`, `<*BY>`, `<*D2001-01-01 00:00:00 +0000>` (a
/// UID as `{CF$UID = <*I5>;}`, which the reader turns back into a UID, as CoreFoundation's XML
/// reader does).
enum OpenStepWriter {
    static func write(_ value: Plist, options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        var writer = OpenStepTextWriter(
            options: options, out: try TextOutput(for: value, indentation: 1, options: options))
        try writer.value(value, depth: 0)
        writer.out.append(0x0A)
        return writer.out.bytes
    }

    /// A `.strings` file: one `"key" = "value";` line per entry of a dictionary of strings.
    static func writeStrings(_ value: Plist, options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        guard case .dictionary(let entries) = value else {
            throw PlistError(.unrepresentable(keyPath: "", type: value.typeName, format: "a .strings file"), at: 0)
        }
        // An empty table is a line feed: white space alone reads as an empty `.strings` file
        // (here and in CoreFoundation), while no bytes at all read as no property list.
        guard !entries.isEmpty else { return [0x0A] }
        var writer = OpenStepTextWriter(
            options: options, out: try TextOutput(for: value, indentation: 0, options: options))
        for (key, element) in writer.ordered(entries) {
            writer.path.append(key)
            let text: String
            switch element {
            case .string(let string): text = string
            case .dictionary, .array, .data:
                throw writer.unrepresentable(element, in: "a .strings file")
            default:
                guard options.openStepValues == .strings, let string = OpenStepTextWriter.stringForm(of: element) else {
                    throw writer.unrepresentable(element, in: "a .strings file")
                }
                text = string
            }
            try writer.out.reserve(key.utf8.count + text.utf8.count + 8)
            writer.quoted(key)
            writer.out.append(" = ")
            writer.quoted(text)
            writer.out.append(";\n")
            writer.path.removeLast()
        }
        return writer.out.bytes
    }
}

private struct OpenStepTextWriter {
    let options: PlistWriteOptions
    var out: TextOutput
    /// The keys and indexes down to the value being written, for error messages.
    var path: [String] = []
    var keyOrders = KeyOrders()

    /// Writes `value`, which is indented by `depth` tabs.
    mutating func value(_ value: Plist, depth: Int) throws(PlistError) {
        try out.reserve(depth + Self.leastSize(of: value))
        switch value {
        case .string(let string):
            self.string(string)
        case .data(let data):
            self.data(data)
        case .array(let elements):
            try out.enter(depth: depth)
            out.append("(\n")
            for (index, element) in elements.enumerated() {
                indent(depth + 1)
                path.append(String(index))
                try self.value(element, depth: depth + 1)
                path.removeLast()
                out.append(",\n")
            }
            indent(depth)
            out.append(")")
        case .dictionary(let entries):
            if options.openStepValues == .gnustep, XMLWriter.isUIDForm(entries) {
                let keyPath = PlistKeyPath(components: path).description
                throw PlistError(
                    .unrepresentable(keyPath: keyPath, type: XMLWriter.uidFormProblem, format: "GNUstep"), at: 0)
            }
            try out.enter(depth: depth)
            out.append("{\n")
            for (key, element) in ordered(entries) {
                try out.reserve(depth + 1 + key.utf8.count + 4)
                indent(depth + 1)
                string(key)
                out.append(" = ")
                path.append(key)
                try self.value(element, depth: depth + 1)
                path.removeLast()
                out.append(";\n")
            }
            indent(depth)
            out.append("}")
        case .integer, .real, .bool, .date, .uid:
            switch options.openStepValues {
            case .gnustep: try typed(value)
            case .strings:
                guard let text = Self.stringForm(of: value) else { throw unrepresentable(value, in: "OpenStep") }
                string(text)
            case .strict: throw unrepresentable(value, in: "OpenStep")
            }
        }
    }

    /// The entries in the order options ask for.
    mutating func ordered(_ entries: PlistDictionary) -> [(key: String, value: Plist)] {
        guard options.sortsKeys, let order = keyOrders.sortedOrder(of: entries) else { return Array(entries) }
        return order.map { entries[$0] }
    }

    func unrepresentable(_ value: Plist, in format: String) -> PlistError {
        let keyPath = PlistKeyPath(components: path).description
        return PlistError(.unrepresentable(keyPath: keyPath, type: value.typeName, format: format), at: 0)
    }

    /// A scalar as text when OpenStep values are converted to strings: integers and reals
    /// exactly, Booleans `YES`/`NO`, dates as GNUstep writes them, UIDs as their number; `nil` for
    /// a date GNUstep's form cannot hold.
    static func stringForm(of value: Plist) -> String? {
        switch value {
        case .integer(let integer): integer.description
        case .real(let real): real.description
        case .bool(let bool): bool ? "YES" : "NO"
        case .date(let date): GNUstepDate.text(for: date.timeIntervalSinceReferenceDate)
        case .uid(let uid): String(uid)
        default: nil
        }
    }

    // MARK: GNUstep typed values

    mutating func typed(_ value: Plist) throws(PlistError) {
        switch value {
        case .integer(let integer): out.append("<*I" + integer.description + ">")
        case .real(let real): out.append("<*R" + real.description + ">")
        case .bool(let bool): out.append(bool ? "<*BY>" : "<*BN>")
        case .date(let date):
            guard let text = GNUstepDate.text(for: date.timeIntervalSinceReferenceDate) else {
                throw unrepresentable(value, in: "GNUstep's date text")
            }
            out.append("<*D" + text + ">")
        case .uid(let uid): out.append("{CF$UID = <*I\(uid)>;}")
        default: preconditionFailure("not a typed value")
        }
    }

    // MARK: Text

    /// The fewest bytes `value` takes: its text, its hex digits, or a bracket.
    static func leastSize(of value: Plist) -> Int {
        switch value {
        case .string(let string): string.utf8.count
        case .data(let data): data.count * 2 + data.count / 4 + 2
        default: 1
        }
    }

    mutating func indent(_ depth: Int) {
        out.append(0x09, count: depth)
    }

    /// A string, unquoted when it can be: not empty, only unquoted characters, and no `//` or
    /// `/*`, which would start a comment.
    mutating func string(_ string: String) {
        if Self.needsNoQuotes(string.utf8) {
            out.append(string)
        } else {
            quoted(string)
        }
    }

    static func needsNoQuotes(_ utf8: String.UTF8View) -> Bool {
        guard !utf8.isEmpty else { return false }
        var previous: UInt8 = 0
        for byte in utf8 {
            guard isUnquoted(byte), !(previous == 0x2F && (byte == 0x2F || byte == 0x2A)) else { return false }
            previous = byte
        }
        return true
    }

    static func isUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x24, 0x2F, 0x3A, 0x2E, 0x2D: true
        default: false
        }
    }

    /// A string in double quotes, escaped.
    mutating func quoted(_ string: String) {
        out.appendQuoted(string, .openStep)
    }

    /// `<0fbd7777 0102>`: lowercase hex in groups of four bytes.
    mutating func data(_ data: Data) {
        out.append(0x3C)
        for (index, byte) in data.enumerated() {
            if index > 0, index.isMultiple(of: 4) { out.append(0x20) }
            out.appendHex(byte)
        }
        out.append(0x3E)
    }
}
