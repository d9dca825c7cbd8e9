/// A property-list encoding.
public enum PlistFormat: String, Hashable, Sendable, CaseIterable {
    /// Apple's binary format, `bplist00`.
    case binary
    /// Apple's XML format.
    case xml
    /// The old-style ASCII format of OpenStep and GNUstep.
    case openStep
    /// A `.strings` file: OpenStep text that is a dictionary without its outer braces.
    /// `detect` says `.openStep` for these; reading tells them apart.
    case strings
    /// JSON, with this package's typed values for dates, data and UIDs.
    case json

    /// The name used in messages: "binary", "XML", "OpenStep", ".strings".
    public var name: String {
        switch self {
        case .binary: "binary"
        case .xml: "XML"
        case .openStep: "OpenStep"
        case .strings: ".strings"
        case .json: "JSON"
        }
    }

    /// The format of `bytes`, judged from their first 4,096 bytes and nothing after them (so
    /// that a reader of a stream decides from what it has buffered); `nil` when they are empty
    /// or start with no byte-order mark, whitespace or character a property list can start
    /// with. ASCII white space alone is OpenStep (an empty `.strings` file).
    ///
    /// `bplist` means binary; `<?xml`, `<!DOCTYPE` or `<plist` (after an optional byte-order mark
    /// and whitespace, in UTF-8, UTF-16 or UTF-32) means XML; `[`, or `{` followed by `}` or by a
    /// quoted key and `:`, means JSON; other text means OpenStep. (`Plist.read(bytes:)` in PlistKit
    /// also reads a lone JSON scalar, such as `12` or `true`, as JSON when it parses as JSON.)
    public static func detect(_ bytes: Span<UInt8>) -> PlistFormat? {
        let magic = BinaryMarker.magic
        if bytes.count >= magic.count, bytes.extracting(0..<magic.count).hasSameBytes(as: magic.span) { return .binary }
        switch ASCIIStart.detect(bytes) {
        case .format(let format): return format
        case .notAPropertyList: return nil
        case .undecided: return detectByDecoding(bytes)
        }
    }

    /// How many bytes `detect(_:)` looks at.
    package static let detectionLength = ASCIIStart.limit

    /// `detect(_:)` for text: decodes the first 4 KB into scalars and judges from them. The
    /// reference for `ASCIIStart`, which takes most documents without decoding.
    static func detectByDecoding(_ bytes: Span<UInt8>) -> PlistFormat? {
        let text = TextPrefix(bytes)
        guard let first = text.firstNonWhitespace else {
            // White space alone is an empty `.strings` file, as CoreFoundation reads it (and white
            // space up to `detectionLength` is left to the OpenStep reader, as CoreFoundation
            // leaves text that is neither binary nor XML).
            let isBlank =
                !bytes.isEmpty
                && (0..<min(bytes.count, ASCIIStart.limit)).allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains(bytes[$0]) }
            return isBlank ? .openStep : nil
        }
        if text.hasPrefix("<?xml", from: first) || text.hasPrefix("<!", from: first)
            || xmlElements.contains(where: { text.hasPrefix($0, from: first) })
        {
            return .xml
        }
        if text.looksLikeJSON(from: first) { return .json }
        let value = first.scalar.value
        return value < 0x20 || value == 0x7F || value == 0xFFFD ? nil : .openStep
    }

    /// The format of `bytes`, judged from their first bytes (see `detect(_:)` for spans).
    public static func detect(_ bytes: [UInt8]) -> PlistFormat? { detect(bytes.span) }
}

/// `PlistFormat.detect(_:)` for UTF-8 text (without byte-order mark or with UTF-8's) whose first
/// character after ASCII white space is ASCII, judged on the bytes: as `TextPrefix` judges the
/// scalars, since ASCII bytes are those scalars wherever they stand in UTF-8 and no byte of a
/// longer or invalid sequence is ASCII. Anything else is left (`.undecided`) to
/// `detectByDecoding`: other encodings, white space past ASCII, a start that is not ASCII.
enum ASCIIStart {
    /// How far `TextPrefix` reads.
    static let limit = 4096

    /// What `detect` makes of a start.
    enum Verdict: Equatable {
        /// The bytes start a document of this format.
        case format(PlistFormat)
        /// They start no property list.
        case notAPropertyList
        /// They are not ASCII text: `detectByDecoding` judges.
        case undecided
    }

    static func detect(_ bytes: Span<UInt8>) -> Verdict {
        let end = min(bytes.count, limit)
        // UTF-16 and UTF-32 (a zero among the first two bytes, or their byte-order marks).
        guard end >= 2, bytes[0] != 0, bytes[1] != 0, !(bytes[0] == 0xFE && bytes[1] == 0xFF),
            !(bytes[0] == 0xFF && bytes[1] == 0xFE)
        else { return .undecided }
        var index = end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        skipSpace(bytes, &index, end)
        guard index < end, bytes[index] < 0x80 else { return .undecided }
        let first = bytes[index]
        switch first {
        case UInt8(ascii: "<"):
            return .format(isXMLStart(bytes, at: index, end) ? .xml : .openStep)
        case UInt8(ascii: "["):
            return .format(.json)
        case UInt8(ascii: "{"):
            guard let isJSON = looksLikeJSONObject(bytes, after: index, end) else { return .undecided }
            return .format(isJSON ? .json : .openStep)
        default:
            return first < 0x20 || first == 0x7F ? .notAPropertyList : .format(.openStep)
        }
    }

    /// Moves `index` past ASCII white space (Unicode's: tab, line feed, vertical tab, form feed,
    /// carriage return and space).
    private static func skipSpace(_ bytes: Span<UInt8>, _ index: inout Int, _ end: Int) {
        while index < end, bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) { index += 1 }
    }

    /// `<?xml`, `<!` or one of `xmlElements` at `index`.
    private static func isXMLStart(_ bytes: Span<UInt8>, at index: Int, _ end: Int) -> Bool {
        func has(_ prefix: String) -> Bool {
            let utf8 = prefix.utf8
            guard index + utf8.count <= end else { return false }
            return utf8.enumerated().allSatisfy { bytes[index + $0.offset] == $0.element }
        }
        return has("<?xml") || has("<!") || xmlElements.contains(where: has)
    }

    /// After `{`: `}`, or a double-quoted key and `:`; nil where white space past ASCII would
    /// decide it.
    private static func looksLikeJSONObject(_ bytes: Span<UInt8>, after brace: Int, _ end: Int) -> Bool? {
        var index = brace + 1
        skipSpace(bytes, &index, end)
        guard index < end else { return false }
        if bytes[index] >= 0x80 { return nil }
        if bytes[index] == UInt8(ascii: "}") { return true }
        guard bytes[index] == UInt8(ascii: "\"") else { return false }
        index += 1
        while index < end, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
        skipSpace(bytes, &index, end)
        guard index < end else { return false }
        if bytes[index] >= 0x80 { return nil }
        return bytes[index] == UInt8(ascii: ":")
    }
}

/// Start tags an XML property list may begin with (CoreFoundation reads a value without the
/// `<plist>` wrapper). None is OpenStep hex data, whose `<` is followed by hex digits only.
private let xmlElements = [
    "plist", "dict", "array", "string", "key", "integer", "real", "date", "data", "true", "false",
]
.flatMap { name in [">", "/", " ", "\t", "\r", "\n"].map { "<" + name + $0 } }

/// The first few characters of some text, decoded from UTF-8, UTF-16 or UTF-32 as the byte-order
/// mark (or the pattern of zero bytes) says.
private struct TextPrefix {
    struct Character {
        var scalar: Unicode.Scalar
        var index: Int
    }
    private var scalars: [Unicode.Scalar] = []

    init(_ bytes: Span<UInt8>) {
        let limit = min(bytes.count, ASCIIStart.limit)
        var raw: [UInt8] = []
        raw.reserveCapacity(limit)
        for i in 0..<limit { raw.append(bytes[i]) }
        scalars = Self.decode(raw)
    }

    private static func decode(_ raw: [UInt8]) -> [Unicode.Scalar] {
        func units(_ width: Int, bigEndian: Bool, skip: Int) -> [UInt32] {
            stride(from: skip, to: raw.count - width + 1, by: width).map { start in
                (0..<width).reduce(UInt32(0)) { value, i in
                    value | UInt32(raw[start + i]) << (8 * (bigEndian ? width - 1 - i : i))
                }
            }
        }
        let b = raw + [1, 1, 1, 1]
        let codeUnits: [UInt32]
        let isUTF16: Bool
        switch (b[0], b[1], b[2], b[3]) {
        case (0x00, 0x00, 0xFE, 0xFF): (codeUnits, isUTF16) = (units(4, bigEndian: true, skip: 4), false)
        case (0xFF, 0xFE, 0x00, 0x00): (codeUnits, isUTF16) = (units(4, bigEndian: false, skip: 4), false)
        case (0xFE, 0xFF, _, _): (codeUnits, isUTF16) = (units(2, bigEndian: true, skip: 2), true)
        case (0xFF, 0xFE, _, _): (codeUnits, isUTF16) = (units(2, bigEndian: false, skip: 2), true)
        case (0x00, 0x00, 0x00, _): (codeUnits, isUTF16) = (units(4, bigEndian: true, skip: 0), false)
        case (_, 0x00, 0x00, 0x00): (codeUnits, isUTF16) = (units(4, bigEndian: false, skip: 0), false)
        case (0x00, _, _, _): (codeUnits, isUTF16) = (units(2, bigEndian: true, skip: 0), true)
        case (_, 0x00, _, _): (codeUnits, isUTF16) = (units(2, bigEndian: false, skip: 0), true)
        case (0xEF, 0xBB, 0xBF, _): return Array(String(decoding: raw.dropFirst(3), as: UTF8.self).unicodeScalars)
        default: return Array(String(decoding: raw, as: UTF8.self).unicodeScalars)
        }
        if isUTF16 {
            return Array(
                String(decoding: codeUnits.map { UInt16(truncatingIfNeeded: $0) }, as: UTF16.self).unicodeScalars)
        }
        return codeUnits.map { Unicode.Scalar($0) ?? "\u{FFFD}" }
    }

    var firstNonWhitespace: Character? {
        guard let index = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return nil }
        return Character(scalar: scalars[index], index: index)
    }

    /// `[`, or `{` then `}` or a double-quoted key and `:` (OpenStep has `=` there).
    func looksLikeJSON(from start: Character) -> Bool {
        if start.scalar == "[" { return true }
        guard start.scalar == "{" else { return false }
        var index = start.index + 1
        func skipSpace() {
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        }
        skipSpace()
        guard index < scalars.count else { return false }
        if scalars[index] == "}" { return true }
        guard scalars[index] == "\"" else { return false }
        index += 1
        while index < scalars.count, scalars[index] != "\"" {
            index += scalars[index] == "\\" ? 2 : 1
        }
        index += 1
        skipSpace()
        return index < scalars.count && scalars[index] == ":"
    }

    func hasPrefix(_ ascii: String, from start: Character) -> Bool {
        let wanted = Array(ascii.unicodeScalars)
        guard start.index + wanted.count <= scalars.count else { return false }
        return zip(scalars[start.index...], wanted).allSatisfy { $0 == $1 }
    }
}
