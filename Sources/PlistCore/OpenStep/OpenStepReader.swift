#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads OpenStep, GNUstep and `.strings` text into a `Plist`, following CoreFoundation's
/// `CFOldStylePList.c`: every plain scalar is a string, unquoted strings are `[A-Za-z0-9_$/:.-]`,
/// comments may stand wherever white space may, and a top-level string followed by `=` or `;`
/// means the whole text is a dictionary without braces (a `.strings` file).
///
/// The text is read as UTF-8 (UTF-16 and UTF-32 are transcoded first); positions in errors are
/// lines and byte columns of that UTF-8 text, computed only when an error is thrown.
enum OpenStepReader {
    /// The value, and whether the text was a `.strings` file (a dictionary without braces).
    static func read(_ input: [UInt8], options: PlistReadOptions) throws(PlistError) -> (
        value: Plist, isStringsFile: Bool
    ) {
        // No text at all is an empty `.strings` file, as white space alone is.
        guard !input.isEmpty else { return (.dictionary([:]), true) }
        var parser = try OpenStepParser(input: input, options: options)
        try parser.validateUTF8()
        let value = try parser.document()
        return (value, parser.isStringsFile)
    }

    /// Where the value at `path` (or the deepest value on it) begins in the text.
    static func position(of path: [PlistPathStep], in input: [UInt8], options: PlistReadOptions) -> TextPosition? {
        guard var parser = try? OpenStepParser(input: input, options: options) else { return nil }
        parser.locator = PathLocator(path: path)
        _ = try? parser.document()
        return parser.locator?.mark.map { TextPosition(of: $0, in: parser.cursor.text, from: parser.cursor.start) }
    }
}

/// The byte values of NeXTSTEP encoding characters 0x80...0xFF as Unicode scalars (what
/// CoreFoundation gives octal escapes `\200`...`\377`).
private let nextStepHigh: [UInt32] = [
    0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7,
    0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF,
    0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9,
    0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00B5, 0x00D7, 0x00F7,
    0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7,
    0x00A4, 0x2019, 0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02,
    0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022,
    0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF,
    0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9,
    0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7,
    0x2014, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00E0, 0x00E1, 0x00E2,
    0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB,
    0x00EC, 0x00C6, 0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1,
    0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
    0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD,
    0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF, 0xFFFD, 0xFFFD,
]

private enum Byte {
    static let tab: UInt8 = 0x09, newline: UInt8 = 0x0A, verticalTab: UInt8 = 0x0B, formFeed: UInt8 = 0x0C
    static let carriageReturn: UInt8 = 0x0D, space: UInt8 = 0x20, doubleQuote: UInt8 = 0x22
    static let singleQuote: UInt8 = 0x27, openParen: UInt8 = 0x28, closeParen: UInt8 = 0x29
    static let asterisk: UInt8 = 0x2A, comma: UInt8 = 0x2C, slash: UInt8 = 0x2F
    static let semicolon: UInt8 = 0x3B, less: UInt8 = 0x3C, equals: UInt8 = 0x3D, greater: UInt8 = 0x3E
    static let openBracket: UInt8 = 0x5B, backslash: UInt8 = 0x5C, closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
}

private struct OpenStepParser {
    var cursor: TextCursor
    /// Reused buffer for the bytes of a quoted string.
    var scratch: [UInt8] = []
    /// Whether the document turned out to be a dictionary without braces.
    var isStringsFile = false
    /// Set to find where a value begins.
    var locator: PathLocator<Int>?
    /// The key storages of the dictionaries read, shared by dictionaries with the same keys.
    var keySets = SharedKeySets()

    /// A parser at the start of `input`, transcoded to UTF-8 when it is UTF-16 or UTF-32.
    init(input: [UInt8], options: PlistReadOptions) throws(PlistError) {
        cursor = try TextCursor(input: input, options: options)
    }

    // MARK: Errors

    func invalid(_ element: String, _ detail: String, at offset: Int) -> PlistError {
        cursor.error(.invalidValue(element: element, text: detail), at: offset)
    }

    /// The text from `from` through `through`, for messages (a literal up to the byte that spoils it).
    func literal(from: Int, through: Int) -> String {
        String(decoding: cursor.text[from...min(through, cursor.text.count - 1)], as: UTF8.self)
    }

    /// Checks the whole text is valid UTF-8, so strings can be built from its bytes directly.
    func validateUTF8() throws(PlistError) {
        var position = cursor.start
        let count = cursor.text.count
        while position < count {
            let lead = cursor.text[position]
            if lead < 0x80 {
                position += 1
                continue
            }
            let length: Int
            var lowest: UInt8 = 0x80
            var highest: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lowest = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                highest = 0x9F
            case 0xF0:
                length = 4
                lowest = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                highest = 0x8F
            default: throw invalid("UTF-8 text", "byte 0x" + String(lead, radix: 16, uppercase: true), at: position)
            }
            guard position + length <= count else {
                throw invalid("UTF-8 text", "truncated sequence", at: position)
            }
            for offset in 1..<length {
                let byte = cursor.text[position + offset]
                let (low, high) = offset == 1 ? (lowest, highest) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= low && byte <= high else {
                    throw invalid(
                        "UTF-8 text", "byte 0x" + String(byte, radix: 16, uppercase: true), at: position + offset)
                }
            }
            position += length
        }
    }

    // MARK: White space and comments

    /// Skips white space and comments; an unterminated `/* */` comment runs to the end.
    mutating func skipSpace() {
        let count = cursor.text.count
        while cursor.index < count {
            let byte = cursor.text[cursor.index]
            switch byte {
            case Byte.space, Byte.tab, Byte.newline, Byte.carriageReturn, Byte.verticalTab, Byte.formFeed:
                cursor.index += 1
            case 0xE2
            where cursor.index + 2 < count && cursor.text[cursor.index + 1] == 0x80
                && (cursor.text[cursor.index + 2] == 0xA8 || cursor.text[cursor.index + 2] == 0xA9):
                cursor.index += 3  // U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR
            case Byte.slash where cursor.index + 1 < count && cursor.text[cursor.index + 1] == Byte.slash:
                cursor.index += 2
                while cursor.index < count && cursor.text[cursor.index] != Byte.newline
                    && cursor.text[cursor.index] != Byte.carriageReturn
                {
                    cursor.index += 1
                }
            case Byte.slash where cursor.index + 1 < count && cursor.text[cursor.index + 1] == Byte.asterisk:
                cursor.index += 2
                while cursor.index < count
                    && !(cursor.text[cursor.index] == Byte.asterisk && cursor.index + 1 < count
                        && cursor.text[cursor.index + 1] == Byte.slash)
                {
                    cursor.index += 1
                }
                cursor.index = min(cursor.index + 2, count)
            default:
                return
            }
        }
    }

    // MARK: Document

    mutating func document() throws(PlistError) -> Plist {
        skipSpace()
        guard cursor.index < cursor.text.count else {
            isStringsFile = true  // only comments: an empty .strings file
            return .dictionary([:])
        }
        let valueStart = cursor.index
        let value = try self.value(depth: 0)
        skipSpace()
        guard cursor.index < cursor.text.count else { return value }
        if case .string = value, cursor.text[cursor.index] == Byte.equals || cursor.text[cursor.index] == Byte.semicolon
        {
            // A `.strings` file: the whole text is the content of a dictionary.
            cursor.index = valueStart
            cursor.budget.restart()
            try cursor.count(contentBytes: 0, at: valueStart)
            isStringsFile = true
            return .dictionary(try dictionaryContent(depth: 1, opening: nil))
        }
        throw cursor.error(.unexpectedText, at: cursor.index)
    }

    /// The value at `index` (white space already skipped), inside `depth` containers.
    mutating func value(depth: Int) throws(PlistError) -> Plist {
        guard cursor.index < cursor.text.count else { throw cursor.error(.noValue, at: cursor.index) }
        let valueStart = cursor.index
        switch cursor.text[cursor.index] {
        case Byte.openBrace:
            try enter(depth: depth)
            cursor.index += 1
            let entries = try dictionaryContent(depth: depth + 1, opening: valueStart)
            // A lone integer `CF$UID` entry is a keyed-archiver UID, as in CoreFoundation's XML.
            if entries.count == 1, entries.keys[0] == "CF$UID", case .integer(let number) = entries.values[0],
                let uid = number.uint64
            {
                return .uid(uid)
            }
            return .dictionary(entries)
        case Byte.openParen:
            try enter(depth: depth)
            cursor.index += 1
            return .array(try arrayContent(depth: depth + 1, opening: valueStart))
        case Byte.less:
            if cursor.index + 1 < cursor.text.count, cursor.text[cursor.index + 1] == Byte.asterisk {
                return try typed()
            }
            if cursor.index + 1 < cursor.text.count, cursor.text[cursor.index + 1] == Byte.openBracket {
                return try base64()
            }
            return try data()
        case Byte.doubleQuote, Byte.singleQuote:
            let string = try quoted()
            return .string(string)
        case let byte where isUnquoted(byte):
            return .string(try unquoted())
        default:
            throw invalid("value", "unexpected " + cursor.found(at: cursor.index), at: cursor.index)
        }
    }

    mutating func enter(depth: Int) throws(PlistError) {
        do throws(PlistError) { try cursor.budget.enter(depth: depth, at: cursor.index) } catch {
            throw cursor.located(error)
        }
        try cursor.count(contentBytes: 0, at: cursor.index)
    }

    // MARK: Containers

    /// Entries up to the closing brace (or the end of the text when `opening` is `nil`).
    mutating func dictionaryContent(depth: Int, opening: Int?) throws(PlistError) -> PlistDictionary {
        var keys: [String] = []
        var values: [Plist] = []
        while true {
            skipSpace()
            guard cursor.index < cursor.text.count else {
                if let opening { throw cursor.error(.truncated(what: "a dictionary"), at: opening) }
                return keySets.dictionary(keys: keys, values: values)
            }
            if opening != nil, cursor.text[cursor.index] == Byte.closeBrace {
                cursor.index += 1
                return keySets.dictionary(keys: keys, values: values)
            }
            let keyStart = cursor.index
            let key: String
            switch cursor.text[cursor.index] {
            case Byte.doubleQuote, Byte.singleQuote: key = try quoted()
            case let byte where isUnquoted(byte): key = try unquoted()
            default:
                throw invalid(
                    "dictionary", "a key cannot start with " + cursor.found(at: cursor.index), at: cursor.index)
            }
            skipSpace()
            guard cursor.index < cursor.text.count else {
                throw endInside(dictionary: opening, "missing `=` before the end")
            }
            let value: Plist
            if cursor.text[cursor.index] == Byte.semicolon {
                // `"key";` is short for `"key" = "key";`
                locator?.enter(.key(key), depth: depth, at: keyStart)
                try cursor.count(contentBytes: key.utf8.count, at: keyStart)
                value = .string(key)
                cursor.index += 1
            } else if cursor.text[cursor.index] == Byte.equals {
                cursor.index += 1
                skipSpace()
                guard cursor.index < cursor.text.count else {
                    throw endInside(dictionary: opening, "no value after `=`")
                }
                locator?.enter(.key(key), depth: depth, at: cursor.index)
                value = try self.value(depth: depth)
                skipSpace()
                guard cursor.index < cursor.text.count else {
                    throw endInside(dictionary: opening, "missing `;` before the end")
                }
                guard cursor.text[cursor.index] == Byte.semicolon else {
                    throw invalid(
                        "dictionary", "missing `;` before " + cursor.found(at: cursor.index), at: cursor.index)
                }
                cursor.index += 1
            } else {
                throw invalid("dictionary", "missing `=` before " + cursor.found(at: cursor.index), at: cursor.index)
            }
            keys.append(key)
            values.append(value)
        }
    }

    /// The error for text that ends inside a dictionary: a truncated dictionary when it has an
    /// opening brace, else (a `.strings` file) an incomplete entry.
    func endInside(dictionary opening: Int?, _ detail: String) -> PlistError {
        if let opening { return cursor.error(.truncated(what: "a dictionary"), at: opening) }
        return invalid("dictionary", detail, at: cursor.index)
    }

    /// Elements up to the closing parenthesis, separated by commas, with an optional trailing comma.
    mutating func arrayContent(depth: Int, opening: Int) throws(PlistError) -> [Plist] {
        var elements: [Plist] = []
        while true {
            skipSpace()
            guard cursor.index < cursor.text.count else {
                throw cursor.error(.truncated(what: "an array"), at: opening)
            }
            if cursor.text[cursor.index] == Byte.closeParen {
                cursor.index += 1
                return elements
            }
            locator?.enter(.index(elements.count), depth: depth, at: cursor.index)
            elements.append(try value(depth: depth))
            skipSpace()
            guard cursor.index < cursor.text.count else {
                throw cursor.error(.truncated(what: "an array"), at: opening)
            }
            if cursor.text[cursor.index] == Byte.comma {
                cursor.index += 1
            } else if cursor.text[cursor.index] != Byte.closeParen {
                throw invalid("array", "missing `,` before " + cursor.found(at: cursor.index), at: cursor.index)
            }
        }
    }

    // MARK: Strings

    func isUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x5F, 0x24, 0x2F, 0x3A, 0x2E, 0x2D: true  // _ $ / : . -
        default: false
        }
    }

    mutating func unquoted() throws(PlistError) -> String {
        let stringStart = cursor.index
        while cursor.index < cursor.text.count && isUnquoted(cursor.text[cursor.index]) { cursor.index += 1 }
        try cursor.count(contentBytes: cursor.index - stringStart, at: stringStart)
        return String(decoding: cursor.text[stringStart..<cursor.index], as: UTF8.self)
    }

    mutating func quoted() throws(PlistError) -> String {
        let stringStart = cursor.index
        let quote = cursor.text[cursor.index]
        cursor.index += 1
        scratch.removeAll(keepingCapacity: true)
        // A `\U` high surrogate waiting for its low half, and where its escape starts. A surrogate
        // without its other half is refused with its place, as binary and JSON refuse one
        // (CoreFoundation reads it as U+FFFD).
        var pendingHigh: UInt32? = nil
        var pendingStart = 0
        var escapeStart = 0
        let count = cursor.text.count
        while true {
            guard cursor.index < count else { throw cursor.error(.truncated(what: "a quoted string"), at: stringStart) }
            let byte = cursor.text[cursor.index]
            if byte == quote {
                cursor.index += 1
                break
            }
            guard byte == Byte.backslash else {
                if pendingHigh != nil { throw cursor.error(.invalidUTF16, at: pendingStart) }
                scratch.append(byte)
                cursor.index += 1
                continue
            }
            escapeStart = cursor.index
            cursor.index += 1
            guard cursor.index < count else { throw cursor.error(.truncated(what: "a quoted string"), at: stringStart) }
            let escaped = cursor.text[cursor.index]
            cursor.index += 1
            var scalar: UInt32
            switch escaped {
            case 0x30...0x37:
                var number = UInt32(escaped - 0x30)
                var digits = 1
                while digits < 3, cursor.index < count, (0x30...0x37).contains(cursor.text[cursor.index]) {
                    number = number << 3 | UInt32(cursor.text[cursor.index] - 0x30)
                    cursor.index += 1
                    digits += 1
                }
                number &= 0xFF
                scalar = number < 0x80 ? number : nextStepHigh[Int(number - 0x80)]
            case 0x55:  // U
                var number: UInt32 = 0
                var digits = 0
                while digits < 4, cursor.index < count, let digit = hexValue(cursor.text[cursor.index]) {
                    number = number << 4 | UInt32(digit)
                    cursor.index += 1
                    digits += 1
                }
                // `\U` needs at least one hex digit, as in swift-foundation (CoreFoundation reads
                // the escape alone as NUL, which would change the string unseen).
                guard digits > 0 else {
                    throw cursor.error(.syntax("\\U must be followed by 1 to 4 hex digits"), at: escapeStart)
                }
                scalar = number
            case 0x61: scalar = 0x07  // a
            case 0x62: scalar = 0x08  // b
            case 0x66: scalar = 0x0C  // f
            case 0x6E: scalar = 0x0A  // n
            case 0x72: scalar = 0x0D  // r
            case 0x74: scalar = 0x09  // t
            case 0x76: scalar = 0x0B  // v
            default:
                // Any other character stands for itself (`\\`, `\"`, `\'`, and unknown escapes such
                // as `\d`, as in CoreFoundation); a multi-byte character's other bytes follow.
                if pendingHigh != nil { throw cursor.error(.invalidUTF16, at: pendingStart) }
                scratch.append(escaped)
                continue
            }
            if let high = pendingHigh {
                pendingHigh = nil
                guard scalar & 0xFC00 == 0xDC00 else { throw cursor.error(.invalidUTF16, at: pendingStart) }
                appendScalar(0x10000 + ((high - 0xD800) << 10 | (scalar - 0xDC00)))
                continue
            }
            if scalar & 0xFC00 == 0xD800 {
                pendingHigh = scalar
                pendingStart = escapeStart
            } else if scalar & 0xFC00 == 0xDC00 {
                throw cursor.error(.invalidUTF16, at: escapeStart)
            } else {
                appendScalar(scalar)
            }
        }
        if pendingHigh != nil { throw cursor.error(.invalidUTF16, at: pendingStart) }
        try cursor.count(contentBytes: scratch.count, at: stringStart)
        return String(decoding: scratch, as: UTF8.self)
    }

    private mutating func appendScalar(_ scalar: UInt32) {
        UnicodeText.appendUTF8(scalar, to: &scratch)
    }

    // MARK: Data

    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    func isSpace(_ byte: UInt8) -> Bool {
        byte == Byte.space || (Byte.tab...Byte.carriageReturn).contains(byte)
    }

    /// `<0fbd 7777>`: pairs of hex digits, with white space allowed between the pairs.
    mutating func data() throws(PlistError) -> Plist {
        let dataStart = cursor.index
        cursor.index += 1
        var bytes: [UInt8] = []
        let count = cursor.text.count
        while true {
            guard cursor.index < count else { throw cursor.error(.truncated(what: "data"), at: dataStart) }
            let byte = cursor.text[cursor.index]
            if byte == Byte.greater {
                cursor.index += 1
                break
            }
            if isSpace(byte) {
                cursor.index += 1
                continue
            }
            guard let high = hexValue(byte) else {
                throw invalid("data", literal(from: dataStart, through: cursor.index), at: cursor.index)
            }
            guard cursor.index + 1 < count else { throw cursor.error(.truncated(what: "data"), at: dataStart) }
            guard let low = hexValue(cursor.text[cursor.index + 1]) else {
                throw invalid("data", literal(from: dataStart, through: cursor.index + 1), at: cursor.index + 1)
            }
            bytes.append(high << 4 | low)
            cursor.index += 2
        }
        try cursor.count(contentBytes: bytes.count, at: dataStart)
        return .data(Data(bytes))
    }

    /// GNUstep `<[ base64 ]>` data; white space is ignored.
    mutating func base64() throws(PlistError) -> Plist {
        let dataStart = cursor.index
        cursor.index += 2
        var bytes: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        let count = cursor.text.count
        while true {
            guard cursor.index < count else { throw cursor.error(.truncated(what: "base64 data"), at: dataStart) }
            let byte = cursor.text[cursor.index]
            if byte == Byte.closeBracket { break }
            cursor.index += 1
            if isSpace(byte) { continue }
            let sextet: UInt32
            switch byte {
            case 0x41...0x5A: sextet = UInt32(byte - 0x41)
            case 0x61...0x7A: sextet = UInt32(byte - 0x61 + 26)
            case 0x30...0x39: sextet = UInt32(byte - 0x30 + 52)
            case 0x2B: sextet = 62
            case 0x2F: sextet = 63
            case Byte.equals:
                padding += 1
                continue
            default:
                throw invalid("base64 data", "unexpected " + cursor.found(at: cursor.index - 1), at: cursor.index - 1)
            }
            guard padding == 0 else { throw invalid("base64 data", "characters after '='", at: cursor.index - 1) }
            accumulator = accumulator << 6 | sextet
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard bits < 6, padding <= 2 else { throw invalid("base64 data", "a truncated group", at: cursor.index) }
        cursor.index += 1
        guard cursor.index < count, cursor.text[cursor.index] == Byte.greater else {
            throw invalid("base64 data", "missing `>` before " + cursor.found(at: cursor.index), at: cursor.index)
        }
        cursor.index += 1
        try cursor.count(contentBytes: bytes.count, at: dataStart)
        return .data(Data(bytes))
    }

    // MARK: GNUstep typed values

    /// `<*I12>`, `<*R1.5>`, `<*BY>`, `<*BN>`, `<*D2001-01-01 00:00:00 +0000>`.
    mutating func typed() throws(PlistError) -> Plist {
        let valueStart = cursor.index
        cursor.index += 2
        let type = try cursor.take("a GNUstep value", startingAt: valueStart)
        let bodyStart = cursor.index
        while cursor.index < cursor.text.count && cursor.text[cursor.index] != Byte.greater { cursor.index += 1 }
        guard cursor.index < cursor.text.count else {
            throw cursor.error(.truncated(what: "a GNUstep value"), at: valueStart)
        }
        let body = String(decoding: cursor.text[bodyStart..<cursor.index], as: UTF8.self)
        cursor.index += 1
        try cursor.count(contentBytes: 0, at: valueStart)
        switch type {
        case 0x49:  // I
            if let value = Int64(body) { return Plist(value) }
            if let value = UInt64(body) { return Plist(value) }
            throw invalid("integer", body, at: bodyStart)
        case 0x52:  // R
            guard !body.isEmpty, let value = Double(body) else { throw invalid("real", body, at: bodyStart) }
            return .real(value)
        case 0x42:  // B
            switch body {
            case "Y", "YES": return .bool(true)
            case "N", "NO": return .bool(false)
            default: throw invalid("bool", body, at: bodyStart)
            }
        case 0x44:  // D
            guard let seconds = GNUstepDate.seconds(from: Array(cursor.text[bodyStart..<(cursor.index - 1)])) else {
                throw invalid("date", body, at: bodyStart)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            throw invalid("GNUstep value", "<*" + String(UnicodeScalar(type)) + body + ">", at: valueStart)
        }
    }

}
