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
        let size = try OutputLimit(options).checkLeastSize(of: value, indentation: 1)
        let text = XMLOutput(options: options, capacity: capacity(for: size))
        var writer = TreeWriter(text: text, sortsKeys: options.sortsKeys)
        do {
            try writer.value(value, depth: 0)
        } catch {
            throw withKeyPath(error, in: value, rules: options.rules)
        }
        return writer.text.finish()
    }

    /// About how many bytes the document of a value of `size` (measured with an indentation of
    /// one byte a level) takes, a little more for most: its output is then allocated once, not
    /// grown (each growth copies it into fresh pages) nor much larger than needed (a buffer that
    /// fits glibc's heap is reused from one document to the next; a larger one is mapped and
    /// faulted in afresh each time). The least size counts one byte and a newline for each
    /// value; the tags add 18 bytes to a string (`<string></string>`), at most 24 more to a
    /// number or date (its text), 12 to a key (`<key></key>\n`) and its indentation; base64
    /// about a third to data. At most 1 GiB: a larger document grows as it is written.
    static func capacity(for size: LeastSize.Size) -> Int {
        let most = 1 << 30
        // Each count at most 2^30, so that the sum cannot overflow.
        let (bytes, data) = (min(size.bytes, most), min(size.dataBytes, most))
        let (values, scalars, keys) = (min(size.values, most), min(size.scalars, most), min(size.keys, most))
        let tags = 18 * values + 24 * scalars + 14 * keys
        return min(XMLOutput.header.utf8CodeUnitCount + 9 + bytes + bytes / 32 + data / 2 + tags, most)
    }

    /// `error` with the key path of the value it concerns, when it is an `.unrepresentable`
    /// from `XMLOutput`, which keeps no key path: found in `value` once writing has failed.
    static func withKeyPath(_ error: PlistError, in value: @autoclosure () -> Plist, rules: FoundationRules)
        -> PlistError
    {
        guard case .unrepresentable(_, let type, let format) = error.kind,
            let path = value().firstPath(where: { problem(with: $0, rules: rules) != nil })
        else { return error }
        return PlistError(
            .unrepresentable(keyPath: PlistKeyPath(components: path).description, type: type, format: format), at: 0)
    }

    /// Why `value` itself (not its elements) cannot be written so that it reads back the same, or
    /// `nil`: a date outside what `<date>` holds, or a dictionary of a lone non-negative integer
    /// `CF$UID`, which is how a UID is written (and so reads back as one, in CF too). Dates are
    /// written by `rules`.
    static func problem(with value: Plist, rules: FoundationRules) -> String? {
        switch value {
        case .date(let date): XMLDate.problem(with: date.timeIntervalSinceReferenceDate, rules: rules)
        case .dictionary(let entries) where isUIDForm(entries): uidFormProblem
        case .dictionary(let entries): entries.keys.lazy.compactMap { problem(withKey: $0.utf8.span) }.first
        default: nil
        }
    }

    /// Why the key `utf8` cannot be written so that it reads back, or `nil`: a key whose escaped
    /// text passes 65,535 bytes and holds a character XML 1.0 forbids, which is written as a
    /// reference (`&#0;`). Only this package's scanner reads those references, and it keeps 16
    /// bits of a key's length; libxml2, which reads longer keys, refuses the references.
    static func problem(withKey utf8: Span<UInt8>) -> String? {
        // Escaping makes a byte at most six: shorter keys stay within 65,535 bytes.
        guard utf8.count > Int(UInt16.max) / 6, utf8.count + escapedExtraBytes(utf8) > Int(UInt16.max) else {
            return nil
        }
        for index in utf8.indices
        where utf8[index] < 0x20 && utf8[index] != 0x09 && utf8[index] != 0x0A
            && utf8[index] != 0x0D || forbiddenNonCharacter(utf8, at: index) != nil
        {
            return longKeyProblem
        }
        return nil
    }

    static let longKeyProblem = "key of more than 65,535 bytes holding characters XML 1.0 forbids"

    /// Whether `entries` are what a UID is written as: one non-negative integer `CF$UID`.
    static func isUIDForm(_ entries: PlistDictionary) -> Bool {
        entries.count == 1 && entries.keys[0] == "CF$UID" && entries.values[0].uint64 != nil
    }

    static let uidFormProblem = "dictionary holding only an integer \"CF$UID\" (which reads back as a UID)"
}

/// Writes a `Plist` into `XMLOutput`.
private struct TreeWriter {
    var text: XMLOutput
    let sortsKeys: Bool
    var keyOrders = KeyOrders()

    /// Writes `value` and its closing newline, indented by `depth` tabs (also the number of
    /// containers around it).
    mutating func value(_ value: Plist, depth: Int) throws(PlistError) {
        switch value {
        case .string, .integer, .real, .bool, .date, .data, .uid: try text.scalar(value, depth: depth)
        case .array(let elements):
            guard try text.open("array", isEmpty: elements.isEmpty, depth: depth) else { return }
            // By index: each element is passed borrowed, not copied out (a retain and a release each).
            for index in elements.indices where try !text.scalar(in: elements, at: index, depth: depth + 1) {
                try self.value(elements[index], depth: depth + 1)
            }
            text.close("array", depth: depth)
        case .dictionary(let entries):
            if XMLWriter.isUIDForm(entries) {
                throw PlistError(.unrepresentable(keyPath: "", type: XMLWriter.uidFormProblem, format: "XML"), at: 0)
            }
            guard try text.open("dict", isEmpty: entries.isEmpty, depth: depth) else { return }
            let (keys, values) = (entries.keyStorage.keys, entries.valueStorage)
            if sortsKeys, let order = keyOrders.sortedOrder(of: entries) {
                for index in order { try entry(keys, values, at: index, depth: depth + 1) }
            } else {
                for index in keys.indices { try entry(keys, values, at: index, depth: depth + 1) }
            }
            text.close("dict", depth: depth)
        }
    }

    @inline(__always)
    private mutating func entry(_ keys: [String], _ values: [Plist], at index: Int, depth: Int) throws(PlistError) {
        try text.key(keys[index].utf8.span, depth: depth)
        if try !text.scalar(in: values, at: index, depth: depth) { try value(values[index], depth: depth) }
    }
}

/// The text of an XML property list being written, with the layout and escapes both XML
/// writers (of `Plist` and of `FlatPlist`) share: each method writes one element on its own
/// line, indented by `depth` tabs, through one `OutputSpan` (one capacity check per element).
///
/// Every value and key checks its indentation and content against `maxOutputBytes` before it
/// is written, so the output passes the limit by at most one value's tags and escapes, and a
/// value that shares storage everywhere (a tree of 2^40 leaves in a few bytes) stops at the
/// limit instead of running for days.
struct XMLOutput {
    private let maxOutputBytes: Int
    private let maxDepth: Int
    private let rules: FoundationRules
    private var out: [UInt8] = []
    /// How many bytes `drain` handed over.
    private var drained = 0

    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// Starts the document, with room for `capacity` bytes; or with `isPart`, a part of one
    /// that another thread writes (without the XML declaration, DOCTYPE and `<plist>`).
    init(options: PlistWriteOptions, capacity: Int, isPart: Bool = false) {
        maxOutputBytes = options.maxOutputBytes
        maxDepth = options.maxDepth
        rules = options.rules
        out = [UInt8](largeCapacity: min(capacity, options.maxOutputBytes))
        guard !isPart else { return }
        out.append(addingCapacity: Self.header.utf8CodeUnitCount) { $0.append(Self.header) }
    }

    /// How many bytes are written.
    var count: Int { out.count }

    /// The text of a part.
    var part: [UInt8] { out }

    /// Puts `parts`, one after another, at `offset`.
    /// - Throws: `.outputTooLarge` when they take the text past the limit.
    mutating func insert(_ parts: [ArraySlice<UInt8>], at offset: Int) throws(PlistError) {
        let added = parts.reduce(0) { $0 + $1.count }
        try reserve(added)
        let rest = Array(out[offset...])
        out.reserveLarge(adding: added)
        out.removeSubrange(offset...)
        for part in parts { out.append(contentsOf: part) }
        out.append(contentsOf: rest)
    }

    /// Hands over the text written so far, for a writer that streams the document out (the
    /// limit counts it still).
    mutating func drain() -> [UInt8] {
        var chunk = [UInt8](largeCapacity: out.capacity)
        swap(&chunk, &out)
        drained += chunk.count
        return chunk
    }

    /// Writes `values[index]` when it is a scalar and returns true; false for an array or
    /// dictionary. The element is read where it is: passed to a method that writes, it was
    /// copied out first (a retain and a release).
    @inline(__always)
    mutating func scalar(in values: [Plist], at index: Int, depth: Int) throws(PlistError) -> Bool {
        switch values[index] {
        case .array, .dictionary: return false
        default:
            try scalar(values[index], depth: depth)
            return true
        }
    }

    /// A scalar (not an array or dictionary).
    @inline(__always)
    mutating func scalar(_ value: Plist, depth: Int) throws(PlistError) {
        switch value {
        case .string(let string): try self.string(string.utf8.span, depth: depth)
        case .integer(let integer):
            try self.integer(
                magnitude: integer.uint64 ?? integer.bitPattern, negative: integer.isNegativeValue, depth: depth)
        case .real(let real): try self.real(real, depth: depth)
        case .bool(let bool): try self.bool(bool, depth: depth)
        case .date(let date): try self.date(secondsSinceReference: date.timeIntervalSinceReferenceDate, depth: depth)
        case .data(let data): try self.data(data.span, depth: depth)
        case .uid(let uid): try self.uid(uid, depth: depth)
        case .array, .dictionary: preconditionFailure("containers are not scalars")
        }
    }

    /// Ends the document and returns it. (Not `consuming`: that made `out` a second reference
    /// to the buffer, so the append copied the whole document.)
    mutating func finish() -> [UInt8] {
        out.append(addingCapacity: 9) { $0.append("</plist>\n") }
        return out
    }

    mutating func string(_ utf8: Span<UInt8>, depth: Int) throws(PlistError) {
        try text(utf8, between: "<string>", and: "</string>\n", depth: depth)
    }

    /// - Throws: `.unrepresentable` (with no key path: the caller knows it) for a key the reader
    ///   could not read back (`XMLWriter.problem(withKey:)`).
    @inline(__always)
    mutating func key(_ utf8: Span<UInt8>, depth: Int) throws(PlistError) {
        if let problem = XMLWriter.problem(withKey: utf8) {
            throw PlistError(.unrepresentable(keyPath: "", type: problem, format: "XML"), at: 0)
        }
        try text(utf8, between: "<key>", and: "</key>\n", depth: depth)
    }

    /// An integer: `magnitude`, after a minus sign when `negative` (then `magnitude` holds the
    /// two's complement bits).
    mutating func integer(magnitude: UInt64, negative: Bool, depth: Int) throws(PlistError) {
        var digits = ShortText()
        digits.appendDecimal(magnitude, negative: negative)
        try short(digits, between: "<integer>", and: "</integer>\n", depth: depth)
    }

    mutating func real(_ value: Double, depth: Int) throws(PlistError) {
        var text = ShortText()
        if rules == .codable, value == 0, value.sign == .minus {
            // Foundation's encoder keeps the sign of zero, which CoreFoundation's writer drops.
            text.append(contentsOf: "-0.0".utf8)
        } else {
            XMLReal.append(value, to: &text)
        }
        try short(text, between: "<real>", and: "</real>\n", depth: depth)
    }

    mutating func bool(_ value: Bool, depth: Int) throws(PlistError) {
        try reserve(depth)
        out.append(addingCapacity: depth + 9) { span in
            span.indent(depth)
            span.append(value ? "<true/>\n" : "<false/>\n")
        }
    }

    /// - Throws: `.unrepresentable` (with no key path: the caller knows it) for a date the reader
    ///   could not read back (`XMLDate.problem(with:rules:)`).
    mutating func date(secondsSinceReference seconds: Double, depth: Int) throws(PlistError) {
        if let problem = XMLDate.problem(with: seconds, rules: rules) {
            throw PlistError(.unrepresentable(keyPath: "", type: problem, format: "XML"), at: 0)
        }
        var text = ShortText()
        XMLDate.append(secondsSinceReference: seconds, rules: rules, to: &text)
        try short(text, between: "<date>", and: "</date>\n", depth: depth)
    }

    /// Base64 in lines of 76 characters less 8 per tab of indentation, each line indented like
    /// the `<data>` tag: 57 bytes a line at the top, 51 one level in, ..., 9 bytes (12 characters)
    /// at 8 levels. Deeper, the lines stay at 8 tabs and 12 characters while the tags keep their
    /// own indentation. No line for empty data; no empty last line when the lines come out even.
    mutating func data(_ bytes: Span<UInt8>, depth: Int) throws(PlistError) {
        try reserve(depth + bytes.count / 3 * 4 + bytes.count / 9 * (min(depth, 8) + 1))
        let tabs = min(depth, 8)
        let bytesPerLine = (76 - 8 * tabs) / 4 * 3
        let lines = (bytes.count + bytesPerLine - 1) / bytesPerLine
        out.append(addingCapacity: 2 * depth + 16 + lines * (tabs + 1 + bytesPerLine / 3 * 4)) { span in
            span.indent(depth)
            span.append("<data>\n")
            var index = 0
            while index < bytes.count {
                let lineEnd = min(index + bytesPerLine, bytes.count)
                span.indent(tabs)
                span.appendBase64(bytes, from: &index, to: lineEnd)
                span.append(0x0A)
            }
            span.indent(depth)
            span.append("</data>\n")
        }
    }

    /// A UID as CoreFoundation writes a keyed-archiver UID: `<dict>`, `<key>CF$UID</key>`,
    /// `<integer>n</integer>`, `</dict>` on four lines. (CF writes the value as unsigned; it
    /// holds 32 bits, ours up to 64.)
    mutating func uid(_ uid: UInt64, depth: Int) throws(PlistError) {
        try reserve(3 * depth)
        var digits = ShortText()
        digits.appendDecimal(uid, negative: false)
        out.append(addingCapacity: 4 * depth + 2 + 56 + digits.count) { span in
            span.indent(depth)
            span.append("<dict>\n")
            span.indent(depth + 1)
            span.append("<key>CF$UID</key>\n")
            span.indent(depth + 1)
            span.append("<integer>")
            digits.write(to: &span)
            span.append("</integer>\n")
            span.indent(depth)
            span.append("</dict>\n")
        }
    }

    /// Opens an `array` or `dict` element, or writes the empty element (`<array/>`) and
    /// returns false.
    /// - Throws: `.tooDeep` past `maxDepth`, `.outputTooLarge` past the limit.
    mutating func open(_ name: StaticString, isEmpty: Bool, depth: Int) throws(PlistError) -> Bool {
        guard depth < maxDepth else { throw PlistError(.tooDeep(limit: maxDepth), at: 0) }
        try reserve(depth)
        out.append(addingCapacity: depth + 4 + name.utf8CodeUnitCount) { span in
            span.indent(depth)
            span.append(0x3C)
            span.append(name)
            span.append(isEmpty ? "/>\n" : ">\n")
        }
        return !isEmpty
    }

    mutating func close(_ name: StaticString, depth: Int) {
        out.append(addingCapacity: depth + 4 + name.utf8CodeUnitCount) { span in
            span.indent(depth)
            span.append("</")
            span.append(name)
            span.append(">\n")
        }
    }

    /// Checks that `count` more bytes stay within `maxOutputBytes`.
    private func reserve(_ count: Int) throws(PlistError) {
        guard count <= maxOutputBytes - drained - out.count else {
            throw PlistError(.outputTooLarge(limit: maxOutputBytes), at: 0)
        }
    }

    /// A line holding `text`, written as it is after the indentation: a line made by
    /// `keyLine` once for a key written many times.
    mutating func line(_ text: Span<UInt8>, depth: Int) throws(PlistError) {
        try reserve(depth + text.count)
        out.append(addingCapacity: depth + text.count) { span in
            span.indent(depth)
            span.append(copying: text)
        }
    }

    /// Appends the line of the key `utf8` without its indentation (`<key>`, the key escaped,
    /// `</key>` and the newline) to `lines`.
    static func keyLine(_ utf8: Span<UInt8>, into lines: inout [UInt8]) {
        let extra = escapedExtraBytes(utf8)
        lines.append(addingCapacity: 12 + utf8.count + extra) { span in
            span.append("<key>")
            span.appendEscaped(utf8, extra: extra)
            span.append("</key>\n")
        }
    }

    /// A line holding `utf8`, escaped, between two tags.
    private mutating func text(
        _ utf8: Span<UInt8>, between open: StaticString, and close: StaticString, depth: Int
    ) throws(PlistError) {
        let count = utf8.count
        try reserve(depth + count)
        let extra = escapedExtraBytes(utf8)
        let tags = open.utf8CodeUnitCount + close.utf8CodeUnitCount
        out.append(addingCapacity: depth + tags + count + extra) { span in
            span.indent(depth)
            span.append(open)
            span.appendEscaped(utf8, extra: extra)
            span.append(close)
        }
    }

    /// A line holding `text` (which needs no escapes) between two tags.
    private mutating func short(
        _ text: ShortText, between open: StaticString, and close: StaticString, depth: Int
    ) throws(PlistError) {
        try reserve(depth)
        out.append(addingCapacity: depth + open.utf8CodeUnitCount + text.count + close.utf8CodeUnitCount) { span in
            span.indent(depth)
            span.append(open)
            text.write(to: &span)
            span.append(close)
        }
    }
}

/// How many bytes the XML writers add to `utf8` by escaping it (an upper bound): `&`, `<` and
/// `>` as CF escapes them, and, unlike CF, the characters XML 1.0 forbids and carriage return
/// as character references (`&#8;`, `&#13;`, `&#65534;`): CF writes those as they are, which
/// makes a document that no XML parser reads (NUL and the other control characters, U+FFFE,
/// U+FFFF) or that reads back with "\n" for "\r". CF's own reader reads the references, and so
/// do ours (see docs/COMPATIBILITY.md). Sixteen bytes are tested at a time (two words), and
/// only a group holding one of them (or tab, line feed, or 0xEF 0xBF, how U+FFFE and U+FFFF
/// start) is looked at byte by byte: most text has none, and text in scripts whose UTF-8
/// starts with 0xEF (fullwidth forms, U+F000 up) rarely has 0xBF after it.
/// `escapedExtraBytesByteByByte` is the reference.
func escapedExtraBytes(_ utf8: Span<UInt8>) -> Int {
    var extra = 0
    var index = 0
    let count = utf8.count
    while index + 16 <= count {
        if mayNeedEscaping(utf8.twoWords(at: index)) {
            for offset in index..<index + 16 { extra += escapedExtraBytes(utf8, at: offset) }
        }
        index += 16
    }
    guard index < count else { return extra }
    // The last 1 to 15 bytes, tested in one go: as the last 16 bytes of the text, or its first
    // and last 8, when it has that many (bytes tested twice only cost a look byte by byte when
    // they need it); shorter, as one word with spaces for the missing bytes.
    let words: SIMD2<UInt64>
    if count >= 16 {
        words = utf8.twoWords(at: count - 16)
    } else if count >= 8 {
        words = SIMD2(utf8.word(at: 0), utf8.word(at: count - 8))
    } else {
        var word: UInt64 = 0x2020_2020_2020_2020
        for position in 0..<count {
            let shift = UInt64(8 * position)
            word = word & ~(0xFF << shift) | UInt64(utf8[position]) << shift
        }
        words = SIMD2(word, word)
    }
    guard mayNeedEscaping(words) else { return extra }
    for offset in index..<count { extra += escapedExtraBytes(utf8, at: offset) }
    return extra
}

/// What `escapedExtraBytes` counts, one byte at a time.
func escapedExtraBytesByteByByte(_ utf8: Span<UInt8>) -> Int {
    var extra = 0
    for index in utf8.indices { extra += escapedExtraBytes(utf8, at: index) }
    return extra
}

/// Whether one of the 16 bytes of `words` (each word little-endian, the first byte lowest) may
/// need escaping: `&`, `<`, `>`, a control character (tab and line feed too), or 0xEF followed
/// by 0xBF or last in its word (the next byte, unseen, may be 0xBF): U+FFFE and U+FFFF are
/// EF BF BE and EF BF BF. `<` and `>` (0x3C, 0x3E) are the bytes that are 0x3E once bit 1 is
/// set. The tests flag every byte they look for, and at times a byte after one (which only
/// costs a look byte by byte).
@inline(__always)
private func mayNeedEscaping(_ words: SIMD2<UInt64>) -> Bool {
    let belowSpace =
        (words &- SIMD2(repeating: 0x20 &* XMLText.ones)) & ~words & SIMD2(repeating: XMLText.highBits)
    let lead = XMLText.bytes(equalTo: 0xEF, in: words)
    let nonCharacter = (lead &<< 8) & XMLText.bytes(equalTo: 0xBF, in: words) | lead & SIMD2(repeating: 0x80 << 56)
    let found =
        XMLText.bytes(equalTo: 0x26, in: words)
        | XMLText.bytes(equalTo: 0x3E, in: words | SIMD2(repeating: 0x02 &* XMLText.ones))
        | nonCharacter | belowSpace
    return found[0] | found[1] != 0
}

/// The bytes escaping adds for the byte at `index` (at most 5).
@inline(__always)
private func escapedExtraBytes(_ utf8: Span<UInt8>, at index: Int) -> Int {
    switch utf8[index] {
    case 0x26, 0x3C, 0x3E: 4
    case 0x09, 0x0A: 0
    case ..<0x20: 4
    case 0xEF: forbiddenNonCharacter(utf8, at: index) == nil ? 0 : 5
    default: 0
    }
}

/// U+FFFE or U+FFFF, which XML forbids, when their UTF-8 starts at `index`.
@inline(__always)
private func forbiddenNonCharacter(_ utf8: Span<UInt8>, at index: Int) -> UInt32? {
    guard index + 2 < utf8.count, utf8[index] == 0xEF, utf8[index + 1] == 0xBF, utf8[index + 2] >= 0xBE else {
        return nil
    }
    return utf8[index + 2] == 0xBE ? 0xFFFE : 0xFFFF
}

extension OutputSpan<UInt8> {
    /// `utf8` escaped as `escapedExtraBytes` counts, given that escaping adds at most `extra` bytes.
    fileprivate mutating func appendEscaped(_ utf8: Span<UInt8>, extra: Int) {
        guard extra > 0 else {
            append(copying: utf8)
            return
        }
        var index = 0
        while index < utf8.count {
            switch utf8[index] {
            case 0x26: append("&amp;")
            case 0x3C: append("&lt;")
            case 0x3E: append("&gt;")
            case 0x09, 0x0A: append(utf8[index])
            case let byte where byte < 0x20: appendReference(UInt32(byte))
            case 0xEF:
                if let scalar = forbiddenNonCharacter(utf8, at: index) {
                    appendReference(scalar)
                    index += 2
                } else {
                    append(0xEF)
                }
            case let byte: append(byte)
            }
            index += 1
        }
    }

    /// `&#` the decimal digits of `scalar` `;`.
    private mutating func appendReference(_ scalar: UInt32) {
        append("&#")
        var place: UInt32 = 1
        while place * 10 <= scalar { place *= 10 }
        while place > 0 {
            append(UInt8(ascii: "0") + UInt8(scalar / place % 10))
            place /= 10
        }
        append(0x3B)
    }

    fileprivate mutating func indent(_ depth: Int) {
        append(repeating: 0x09, count: depth)
    }

    private static let base64Alphabet: InlineArray<64, UInt8> = [
        65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90,
        97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118,
        119, 120, 121, 122, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 43, 47,
    ]

    /// The base64 of `bytes[index..<end]`, padded with `=`; `index` ends at `end`.
    fileprivate mutating func appendBase64(_ bytes: Span<UInt8>, from index: inout Int, to end: Int) {
        let alphabet = Self.base64Alphabet
        while index + 3 <= end {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            append(alphabet[Int(group >> 18)])
            append(alphabet[Int(group >> 12 & 0x3F)])
            append(alphabet[Int(group >> 6 & 0x3F)])
            append(alphabet[Int(group & 0x3F)])
            index += 3
        }
        if index < end {
            let second = index + 1 < end ? UInt32(bytes[index + 1]) : 0
            let group = UInt32(bytes[index]) << 16 | second << 8
            append(alphabet[Int(group >> 18)])
            append(alphabet[Int(group >> 12 & 0x3F)])
            append(index + 1 < end ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            append(UInt8(ascii: "="))
            index = end
        }
    }
}
