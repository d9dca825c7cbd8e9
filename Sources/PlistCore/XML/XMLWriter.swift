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
        var writer = Writer(options: options)
        writer.out.reserveCapacity(4096)
        writer.out.append(contentsOf: header.utf8)
        try writer.value(value, depth: 0)
        writer.out.append(contentsOf: "</plist>\n".utf8)
        return writer.out
    }

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
}

private struct Writer {
    let maxDepth: Int
    let sortsKeys: Bool
    let maxOutputBytes: Int
    var out: [UInt8] = []

    init(options: PlistWriteOptions) {
        maxDepth = options.maxDepth
        sortsKeys = options.sortsKeys
        maxOutputBytes = options.maxOutputBytes
    }

    /// Writes `value` and its closing newline, indented by `depth` tabs (also the number of
    /// containers around it).
    mutating func value(_ value: Plist, depth: Int) throws(PlistError) {
        try reserve(depth)
        indent(depth)
        switch value {
        case .string(let string):
            try reserve(string.utf8.count)
            append("<string>")
            appendEscaped(string)
            append("</string>\n")
        case .integer(let integer):
            append("<integer>")
            appendDecimal(integer.uint64 ?? integer.bitPattern, negative: integer.isNegativeValue)
            append("</integer>\n")
        case .real(let real):
            append("<real>")
            XMLReal.append(real, to: &out)
            append("</real>\n")
        case .bool(let bool):
            append(bool ? "<true/>\n" : "<false/>\n")
        case .date(let date):
            append("<date>")
            XMLDate.append(secondsSinceReference: date.timeIntervalSinceReferenceDate, to: &out)
            append("</date>\n")
        case .data(let data):
            try reserve(data.count / 3 * 4 + data.count / 9 * (min(depth, 8) + 1))
            append("<data>\n")
            appendBase64(data, depth: depth)
            indent(depth)
            append("</data>\n")
        case .uid(let uid):
            // CF writes the value as unsigned (it holds 32 bits); ours may hold up to 64.
            append("<dict>\n")
            indent(depth + 1)
            append("<key>CF$UID</key>\n")
            indent(depth + 1)
            append("<integer>")
            appendDecimal(uid, negative: false)
            append("</integer>\n")
            indent(depth)
            append("</dict>\n")
        case .array(let elements):
            guard depth < maxDepth else { throw PlistError(.tooDeep(limit: maxDepth), at: 0) }
            if elements.isEmpty { return append("<array/>\n") }
            append("<array>\n")
            for element in elements { try self.value(element, depth: depth + 1) }
            indent(depth)
            append("</array>\n")
        case .dictionary(let entries):
            guard depth < maxDepth else { throw PlistError(.tooDeep(limit: maxDepth), at: 0) }
            if entries.isEmpty { return append("<dict/>\n") }
            append("<dict>\n")
            if sortsKeys, let order = KeyOrder.sortedOrder(entries.keys) {
                for index in order { try entry(entries.elements[index], depth: depth + 1) }
            } else {
                for element in entries.elements { try entry(element, depth: depth + 1) }
            }
            indent(depth)
            append("</dict>\n")
        }
    }

    private mutating func entry(_ element: (key: String, value: Plist), depth: Int) throws(PlistError) {
        try reserve(depth + element.key.utf8.count)
        indent(depth)
        append("<key>")
        appendEscaped(element.key)
        append("</key>\n")
        try value(element.value, depth: depth)
    }

    /// Checks that `count` more bytes stay within `maxOutputBytes`. Every value and key checks
    /// its indentation and content before it is written, so the output passes the limit by at
    /// most one value's tags and escapes, and a value that shares storage everywhere (a tree of
    /// 2^40 leaves in a few bytes) stops at the limit instead of running for days.
    private func reserve(_ count: Int) throws(PlistError) {
        guard count <= maxOutputBytes - out.count else {
            throw PlistError(.outputTooLarge(limit: maxOutputBytes), at: 0)
        }
    }

    private mutating func append(_ text: StaticString) {
        appendBytes(of: text, to: &out)
    }

    private mutating func indent(_ depth: Int) {
        for _ in 0..<depth { out.append(0x09) }
    }

    /// The string's UTF-8 with `&`, `<` and `>` escaped, as CF does; every other character is
    /// written as it is: `"`, `'`, "\r" (which XML parsers read back as "\n"), and also NUL, the
    /// other control characters, U+FFFE and U+FFFF, which make the document not well-formed XML
    /// (libxml2 rejects it), as Foundation's is.
    private mutating func appendEscaped(_ string: String) {
        let start = out.count
        out.append(contentsOf: string.utf8)
        var clean = true
        for byte in out[start...] where byte == 0x26 || byte == 0x3C || byte == 0x3E {
            clean = false
            break
        }
        if clean { return }
        out.removeSubrange(start...)
        for byte in string.utf8 {
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
    private mutating func appendBase64(_ data: Data, depth: Int) {
        let tabs = min(depth, 8)
        let bytesPerLine = (76 - 8 * tabs) / 4 * 3
        let bytes = data.span
        let alphabet = Self.base64Alphabet
        var index = 0
        while index < bytes.count {
            let lineEnd = min(index + bytesPerLine, bytes.count)
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
