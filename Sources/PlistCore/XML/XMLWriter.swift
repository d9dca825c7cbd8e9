import OrderedCollections

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a `Plist` as an XML property list, byte for byte as CoreFoundation's
/// `_CFAppendXML0` does (what Foundation's `PropertyListSerialization` writes on Linux).
///
/// Layout (checked against Foundation): the XML declaration, the Apple DOCTYPE and
/// `<plist version="1.0">` on three lines; the top value at no indentation and each nested
/// value one tab deeper; one element per line, every line ending in `\n`, the file ending in
/// `</plist>\n`. Empty containers are `<array/>` and `<dict/>`; Booleans `<true/>`, `<false/>`.
/// A UID is written as CoreFoundation writes a keyed-archiver UID: `<dict>`, `<key>CF$UID</key>`,
/// `<integer>n</integer>`, `</dict>` on four lines.
enum XMLWriter {
    static func write(_ value: Plist, options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        try OutputLimit(options).checkLeastSize(of: value, indentation: 1)
        var writer = TreeWriter(text: XMLText(options: options, capacity: 4096), sortsKeys: options.sortsKeys)
        try writer.value(value, depth: 0)
        return writer.text.finish()
    }
}

/// Writes a `Plist` into `XMLText`.
private struct TreeWriter {
    var text: XMLText
    let sortsKeys: Bool

    /// Writes `value` and its closing newline, indented by `depth` tabs (also the number of
    /// containers around it).
    mutating func value(_ value: Plist, depth: Int) throws(PlistError) {
        switch value {
        case .string(let string): try text.string(string.utf8, depth: depth)
        case .integer(let integer):
            try text.integer(
                magnitude: integer.uint64 ?? integer.bitPattern, negative: integer.isNegativeValue, depth: depth)
        case .real(let real): try text.real(real, depth: depth)
        case .bool(let bool): try text.bool(bool, depth: depth)
        case .date(let date): try text.date(secondsSinceReference: date.timeIntervalSinceReferenceDate, depth: depth)
        case .data(let data): try text.data(data.span, depth: depth)
        case .uid(let uid): try text.uid(uid, depth: depth)
        case .array(let elements):
            guard try text.open("array", isEmpty: elements.isEmpty, depth: depth) else { return }
            for element in elements { try self.value(element, depth: depth + 1) }
            text.close("array", depth: depth)
        case .dictionary(let entries):
            guard try text.open("dict", isEmpty: entries.isEmpty, depth: depth) else { return }
            if sortsKeys, let order = KeyOrder.sortedOrder(entries.keys) {
                for index in order { try entry(entries.elements[index], depth: depth + 1) }
            } else {
                for element in entries.elements { try entry(element, depth: depth + 1) }
            }
            text.close("dict", depth: depth)
        }
    }

    private mutating func entry(_ element: (key: String, value: Plist), depth: Int) throws(PlistError) {
        try text.key(element.key.utf8, depth: depth)
        try value(element.value, depth: depth)
    }
}

/// The text of an XML property list being written, with the layout and escapes both XML
/// writers (of `Plist` and of `FlatPlist`) share: each method writes one element on its own
/// line, indented by `depth` tabs.
///
/// Every value and key checks its indentation and content against `maxOutputBytes` before it
/// is written, so the output passes the limit by at most one value's tags and escapes, and a
/// value that shares storage everywhere (a tree of 2^40 leaves in a few bytes) stops at the
/// limit instead of running for days.
struct XMLText {
    private let maxOutputBytes: Int
    private let maxDepth: Int
    private var out: [UInt8] = []

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// Starts the document, with room for `capacity` bytes.
    init(options: PlistWriteOptions, capacity: Int) {
        maxOutputBytes = options.maxOutputBytes
        maxDepth = options.maxDepth
        out.reserveCapacity(min(capacity, options.maxOutputBytes))
        out.append(contentsOf: Self.header.utf8)
    }

    /// Ends the document and returns it.
    consuming func finish() -> [UInt8] {
        append("</plist>\n")
        return out
    }

    mutating func string(_ utf8: some Collection<UInt8>, depth: Int) throws(PlistError) {
        try reserve(depth + utf8.count)
        indent(depth)
        append("<string>")
        appendEscaped(utf8)
        append("</string>\n")
    }

    mutating func key(_ utf8: some Collection<UInt8>, depth: Int) throws(PlistError) {
        try reserve(depth + utf8.count)
        indent(depth)
        append("<key>")
        appendEscaped(utf8)
        append("</key>\n")
    }

    /// An integer: `magnitude`, after a minus sign when `negative` (then `magnitude` holds the
    /// two's complement bits).
    mutating func integer(magnitude: UInt64, negative: Bool, depth: Int) throws(PlistError) {
        try reserve(depth)
        indent(depth)
        append("<integer>")
        appendDecimal(magnitude, negative: negative)
        append("</integer>\n")
    }

    mutating func real(_ value: Double, depth: Int) throws(PlistError) {
        try reserve(depth)
        indent(depth)
        append("<real>")
        XMLReal.append(value, to: &out)
        append("</real>\n")
    }

    mutating func bool(_ value: Bool, depth: Int) throws(PlistError) {
        try reserve(depth)
        indent(depth)
        append(value ? "<true/>\n" : "<false/>\n")
    }

    mutating func date(secondsSinceReference seconds: Double, depth: Int) throws(PlistError) {
        try reserve(depth)
        indent(depth)
        append("<date>")
        XMLDate.append(secondsSinceReference: seconds, to: &out)
        append("</date>\n")
    }

    mutating func data(_ bytes: Span<UInt8>, depth: Int) throws(PlistError) {
        try reserve(depth + bytes.count / 3 * 4 + bytes.count / 9 * (min(depth, 8) + 1))
        indent(depth)
        append("<data>\n")
        appendBase64(bytes, depth: depth)
        indent(depth)
        append("</data>\n")
    }

    /// A UID as CoreFoundation writes a keyed-archiver UID: `<dict>`, `<key>CF$UID</key>`,
    /// `<integer>n</integer>`, `</dict>` on four lines. (CF writes the value as unsigned; it
    /// holds 32 bits, ours up to 64.)
    mutating func uid(_ uid: UInt64, depth: Int) throws(PlistError) {
        try reserve(3 * depth)
        indent(depth)
        append("<dict>\n")
        indent(depth + 1)
        append("<key>CF$UID</key>\n")
        indent(depth + 1)
        append("<integer>")
        appendDecimal(uid, negative: false)
        append("</integer>\n")
        indent(depth)
        append("</dict>\n")
    }

    /// Opens an `array` or `dict` element, or writes the empty element (`<array/>`) and
    /// returns false.
    /// - Throws: `.tooDeep` past `maxDepth`, `.outputTooLarge` past the limit.
    mutating func open(_ name: StaticString, isEmpty: Bool, depth: Int) throws(PlistError) -> Bool {
        guard depth < maxDepth else { throw PlistError(.tooDeep(limit: maxDepth), at: 0) }
        try reserve(depth)
        indent(depth)
        append("<")
        append(name)
        append(isEmpty ? "/>\n" : ">\n")
        return !isEmpty
    }

    mutating func close(_ name: StaticString, depth: Int) {
        indent(depth)
        append("</")
        append(name)
        append(">\n")
    }

    /// Checks that `count` more bytes stay within `maxOutputBytes`.
    private func reserve(_ count: Int) throws(PlistError) {
        guard count <= maxOutputBytes - out.count else {
            throw PlistError(.outputTooLarge(limit: maxOutputBytes), at: 0)
        }
    }

    private mutating func append(_ text: StaticString) {
        appendBytes(of: text, to: &out)
    }

    private static let tabs: StaticString = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"

    private mutating func indent(_ depth: Int) {
        var rest = depth
        while rest >= 16 {
            append(Self.tabs)
            rest -= 16
        }
        for _ in 0..<rest { out.append(0x09) }
    }

    /// The UTF-8 with `&`, `<` and `>` escaped, as CF does; every other character is written
    /// as it is: `"`, `'`, "\r" (which XML parsers read back as "\n"), and also NUL, the other
    /// control characters, U+FFFE and U+FFFF, which make the document not well-formed XML
    /// (libxml2 rejects it), as Foundation's is.
    private mutating func appendEscaped(_ utf8: some Collection<UInt8>) {
        let start = out.count
        out.append(contentsOf: utf8)
        var clean = true
        for byte in out[start...] where byte == 0x26 || byte == 0x3C || byte == 0x3E {
            clean = false
            break
        }
        if clean { return }
        out.removeSubrange(start...)
        for byte in utf8 {
            switch byte {
            case 0x26: append("&amp;")
            case 0x3C: append("&lt;")
            case 0x3E: append("&gt;")
            default: out.append(byte)
            }
        }
    }

    /// The decimal digits of `magnitude`, after a minus sign when `negative` (then `magnitude`
    /// holds the two's complement bits).
    private mutating func appendDecimal(_ magnitude: UInt64, negative: Bool) {
        var rest = magnitude
        if negative {
            out.append(UInt8(ascii: "-"))
            rest = 0 &- magnitude
        }
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        out[start...].reverse()
    }

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Base64 in lines of 76 characters less 8 per tab of indentation, each line indented like
    /// the `<data>` tag: 57 bytes a line at the top, 51 one level in, ..., 9 bytes (12 characters)
    /// at 8 levels. Deeper, the lines stay at 8 tabs and 12 characters while the tags keep their
    /// own indentation. No line for empty data; no empty last line when the lines come out even.
    private mutating func appendBase64(_ bytes: Span<UInt8>, depth: Int) {
        let tabs = min(depth, 8)
        let bytesPerLine = (76 - 8 * tabs) / 4 * 3
        let count = bytes.count
        let alphabet = Self.base64Alphabet
        var index = 0
        while index < count {
            let lineEnd = min(index + bytesPerLine, count)
            indent(tabs)
            while index + 3 <= lineEnd {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                out.append(alphabet[Int(group >> 18)])
                out.append(alphabet[Int(group >> 12 & 0x3F)])
                out.append(alphabet[Int(group >> 6 & 0x3F)])
                out.append(alphabet[Int(group & 0x3F)])
                index += 3
            }
            if index < lineEnd {
                let second = index + 1 < lineEnd ? UInt32(bytes[index + 1]) : 0
                let group = UInt32(bytes[index]) << 16 | second << 8
                out.append(alphabet[Int(group >> 18)])
                out.append(alphabet[Int(group >> 12 & 0x3F)])
                out.append(index + 1 < lineEnd ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
                out.append(UInt8(ascii: "="))
                index = lineEnd
            }
            out.append(0x0A)
        }
    }
}
