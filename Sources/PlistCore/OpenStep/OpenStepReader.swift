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
        return parser.locator?.mark.map { TextPosition(of: $0, in: parser.text, from: parser.start) }
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
    let text: [UInt8]
    let start: Int
    var budget: ReadBudget
    var index: Int
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
        (text, start) = try UnicodeText.utf8Text(of: input)
        index = start
        budget = ReadBudget(options)
    }

    // MARK: Errors

    /// An error of `kind` at byte `offset`, with its line and column.
    func error(_ kind: PlistError.Kind, at offset: Int) -> PlistError {
        PlistError(kind, at: offset, position: TextPosition(of: offset, in: text, from: start))
    }

    func invalid(_ element: String, _ detail: String, at offset: Int) -> PlistError {
        error(.invalidValue(element: element, text: detail), at: offset)
    }

    /// A short, printable description of the text at `offset` for messages.
    func found(at offset: Int) -> String {
        guard offset < text.count else { return "the end" }
        let byte = text[offset]
        if byte >= 0x21 && byte < 0x7F { return "`" + String(UnicodeScalar(byte)) + "`" }
        let digits = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (digits.count == 1 ? "0" + digits : digits)
    }

    /// The text from `from` through `through`, for messages (a literal up to the byte that spoils it).
    func literal(from: Int, through: Int) -> String {
        String(decoding: text[from...min(through, text.count - 1)], as: UTF8.self)
    }

    /// Checks the whole text is valid UTF-8, so strings can be built from its bytes directly.
    func validateUTF8() throws(PlistError) {
        var position = start
        let count = text.count
        while position < count {
            let lead = text[position]
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
                let byte = text[position + offset]
                let (low, high) = offset == 1 ? (lowest, highest) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= low && byte <= high else {
                    throw invalid(
                        "UTF-8 text", "byte 0x" + String(byte, radix: 16, uppercase: true), at: position + offset)
                }
            }
            position += length
        }
    }

    // MARK: Limits

    /// Counts a value of `added` bytes of string or data content.
    mutating func count(contentBytes added: Int, at offset: Int) throws(PlistError) {
        do throws(PlistError) { try budget.countValue(contentBytes: added, at: offset) } catch { throw located(error) }
    }

    /// `error` (from the budget) with its line and column.
    func located(_ error: PlistError) -> PlistError {
        self.error(error.kind, at: error.byteOffset ?? 0)
    }

    // MARK: White space and comments

    /// Skips white space and comments; an unterminated `/* */` comment runs to the end.
    mutating func skipSpace() {
        let count = text.count
        while index < count {
            let byte = text[index]
            switch byte {
            case Byte.space, Byte.tab, Byte.newline, Byte.carriageReturn, Byte.verticalTab, Byte.formFeed:
                index += 1
            case 0xE2
            where index + 2 < count && text[index + 1] == 0x80
                && (text[index + 2] == 0xA8 || text[index + 2] == 0xA9):
                index += 3  // U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR
            case Byte.slash where index + 1 < count && text[index + 1] == Byte.slash:
                index += 2
                while index < count && text[index] != Byte.newline && text[index] != Byte.carriageReturn {
                    index += 1
                }
            case Byte.slash where index + 1 < count && text[index + 1] == Byte.asterisk:
                index += 2
                while index < count
                    && !(text[index] == Byte.asterisk && index + 1 < count
                        && text[index + 1] == Byte.slash)
                {
                    index += 1
                }
                index = min(index + 2, count)
            default:
                return
            }
        }
    }

    // MARK: Document

    mutating func document() throws(PlistError) -> Plist {
        skipSpace()
        guard index < text.count else {
            isStringsFile = true  // only comments: an empty .strings file
            return .dictionary([:])
        }
        let valueStart = index
        let value = try self.value(depth: 0)
        skipSpace()
        guard index < text.count else { return value }
        if case .string = value, text[index] == Byte.equals || text[index] == Byte.semicolon {
            // A `.strings` file: the whole text is the content of a dictionary.
            index = valueStart
            budget.restart()
            try count(contentBytes: 0, at: valueStart)
            isStringsFile = true
            return .dictionary(try dictionaryContent(depth: 1, opening: nil))
        }
        throw error(.unexpectedText, at: index)
    }

    /// The value at `index` (white space already skipped), inside `depth` containers.
    mutating func value(depth: Int) throws(PlistError) -> Plist {
        guard index < text.count else { throw error(.noValue, at: index) }
        let valueStart = index
        switch text[index] {
        case Byte.openBrace:
            try enter(depth: depth)
            index += 1
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
            index += 1
            return .array(try arrayContent(depth: depth + 1, opening: valueStart))
        case Byte.less:
            if index + 1 < text.count, text[index + 1] == Byte.asterisk { return try typed() }
            if index + 1 < text.count, text[index + 1] == Byte.openBracket { return try base64() }
            return try data()
        case Byte.doubleQuote, Byte.singleQuote:
            let string = try quoted()
            return .string(string)
        case let byte where isUnquoted(byte):
            return .string(try unquoted())
        default:
            throw invalid("value", "unexpected " + found(at: index), at: index)
        }
    }

    mutating func enter(depth: Int) throws(PlistError) {
        do throws(PlistError) { try budget.enter(depth: depth, at: index) } catch { throw located(error) }
        try count(contentBytes: 0, at: index)
    }

    // MARK: Containers

    /// Entries up to the closing brace (or the end of the text when `opening` is `nil`).
    mutating func dictionaryContent(depth: Int, opening: Int?) throws(PlistError) -> PlistDictionary {
        var keys: [String] = []
        var values: [Plist] = []
        while true {
            skipSpace()
            guard index < text.count else {
                if let opening { throw error(.truncated(what: "a dictionary"), at: opening) }
                return keySets.dictionary(keys: keys, values: values)
            }
            if opening != nil, text[index] == Byte.closeBrace {
                index += 1
                return keySets.dictionary(keys: keys, values: values)
            }
            let keyStart = index
            let key: String
            switch text[index] {
            case Byte.doubleQuote, Byte.singleQuote: key = try quoted()
            case let byte where isUnquoted(byte): key = try unquoted()
            default:
                throw invalid("dictionary", "a key cannot start with " + found(at: index), at: index)
            }
            skipSpace()
            guard index < text.count else { throw endInside(dictionary: opening, "missing `=` before the end") }
            let value: Plist
            if text[index] == Byte.semicolon {
                // `"key";` is short for `"key" = "key";`
                locator?.enter(.key(key), depth: depth, at: keyStart)
                try count(contentBytes: key.utf8.count, at: keyStart)
                value = .string(key)
                index += 1
            } else if text[index] == Byte.equals {
                index += 1
                skipSpace()
                guard index < text.count else { throw endInside(dictionary: opening, "no value after `=`") }
                locator?.enter(.key(key), depth: depth, at: index)
                value = try self.value(depth: depth)
                skipSpace()
                guard index < text.count else { throw endInside(dictionary: opening, "missing `;` before the end") }
                guard text[index] == Byte.semicolon else {
                    throw invalid("dictionary", "missing `;` before " + found(at: index), at: index)
                }
                index += 1
            } else {
                throw invalid("dictionary", "missing `=` before " + found(at: index), at: index)
            }
            keys.append(key)
            values.append(value)
        }
    }

    /// The error for text that ends inside a dictionary: a truncated dictionary when it has an
    /// opening brace, else (a `.strings` file) an incomplete entry.
    func endInside(dictionary opening: Int?, _ detail: String) -> PlistError {
        if let opening { return error(.truncated(what: "a dictionary"), at: opening) }
        return invalid("dictionary", detail, at: index)
    }

    /// Elements up to the closing parenthesis, separated by commas, with an optional trailing comma.
    mutating func arrayContent(depth: Int, opening: Int) throws(PlistError) -> [Plist] {
        var elements: [Plist] = []
        while true {
            skipSpace()
            guard index < text.count else { throw error(.truncated(what: "an array"), at: opening) }
            if text[index] == Byte.closeParen {
                index += 1
                return elements
            }
            locator?.enter(.index(elements.count), depth: depth, at: index)
            elements.append(try value(depth: depth))
            skipSpace()
            guard index < text.count else { throw error(.truncated(what: "an array"), at: opening) }
            if text[index] == Byte.comma {
                index += 1
            } else if text[index] != Byte.closeParen {
                throw invalid("array", "missing `,` before " + found(at: index), at: index)
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
        let stringStart = index
        while index < text.count && isUnquoted(text[index]) { index += 1 }
        try count(contentBytes: index - stringStart, at: stringStart)
        return String(decoding: text[stringStart..<index], as: UTF8.self)
    }

    mutating func quoted() throws(PlistError) -> String {
        let stringStart = index
        let quote = text[index]
        index += 1
        scratch.removeAll(keepingCapacity: true)
        // A `\U` high surrogate waiting for its low half, and where its escape starts. A surrogate
        // without its other half is refused with its place, as binary and JSON refuse one
        // (CoreFoundation reads it as U+FFFD).
        var pendingHigh: UInt32? = nil
        var pendingStart = 0
        var escapeStart = 0
        let count = text.count
        while true {
            guard index < count else { throw error(.truncated(what: "a quoted string"), at: stringStart) }
            let byte = text[index]
            if byte == quote {
                index += 1
                break
            }
            guard byte == Byte.backslash else {
                if pendingHigh != nil { throw error(.invalidUTF16, at: pendingStart) }
                scratch.append(byte)
                index += 1
                continue
            }
            escapeStart = index
            index += 1
            guard index < count else { throw error(.truncated(what: "a quoted string"), at: stringStart) }
            let escaped = text[index]
            index += 1
            var scalar: UInt32
            switch escaped {
            case 0x30...0x37:
                var number = UInt32(escaped - 0x30)
                var digits = 1
                while digits < 3, index < count, (0x30...0x37).contains(text[index]) {
                    number = number << 3 | UInt32(text[index] - 0x30)
                    index += 1
                    digits += 1
                }
                number &= 0xFF
                scalar = number < 0x80 ? number : nextStepHigh[Int(number - 0x80)]
            case 0x55:  // U
                var number: UInt32 = 0
                var digits = 0
                while digits < 4, index < count, let digit = hexValue(text[index]) {
                    number = number << 4 | UInt32(digit)
                    index += 1
                    digits += 1
                }
                // `\U` needs at least one hex digit, as in swift-foundation (CoreFoundation reads
                // the escape alone as NUL, which would change the string unseen).
                guard digits > 0 else {
                    throw error(.syntax("\\U must be followed by 1 to 4 hex digits"), at: escapeStart)
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
                if pendingHigh != nil { throw error(.invalidUTF16, at: pendingStart) }
                scratch.append(escaped)
                continue
            }
            if let high = pendingHigh {
                pendingHigh = nil
                guard scalar & 0xFC00 == 0xDC00 else { throw error(.invalidUTF16, at: pendingStart) }
                appendScalar(0x10000 + ((high - 0xD800) << 10 | (scalar - 0xDC00)))
                continue
            }
            if scalar & 0xFC00 == 0xD800 {
                pendingHigh = scalar
                pendingStart = escapeStart
            } else if scalar & 0xFC00 == 0xDC00 {
                throw error(.invalidUTF16, at: escapeStart)
            } else {
                appendScalar(scalar)
            }
        }
        if pendingHigh != nil { throw error(.invalidUTF16, at: pendingStart) }
        try self.count(contentBytes: scratch.count, at: stringStart)
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
        let dataStart = index
        index += 1
        var bytes: [UInt8] = []
        let count = text.count
        while true {
            guard index < count else { throw error(.truncated(what: "data"), at: dataStart) }
            let byte = text[index]
            if byte == Byte.greater {
                index += 1
                break
            }
            if isSpace(byte) {
                index += 1
                continue
            }
            guard let high = hexValue(byte) else {
                throw invalid("data", literal(from: dataStart, through: index), at: index)
            }
            guard index + 1 < count else { throw error(.truncated(what: "data"), at: dataStart) }
            guard let low = hexValue(text[index + 1]) else {
                throw invalid("data", literal(from: dataStart, through: index + 1), at: index + 1)
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        try self.count(contentBytes: bytes.count, at: dataStart)
        return .data(Data(bytes))
    }

    /// GNUstep `<[ base64 ]>` data; white space is ignored.
    mutating func base64() throws(PlistError) -> Plist {
        let dataStart = index
        index += 2
        var bytes: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        let count = text.count
        while true {
            guard index < count else { throw error(.truncated(what: "base64 data"), at: dataStart) }
            let byte = text[index]
            if byte == Byte.closeBracket { break }
            index += 1
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
                throw invalid("base64 data", "unexpected " + found(at: index - 1), at: index - 1)
            }
            guard padding == 0 else { throw invalid("base64 data", "characters after '='", at: index - 1) }
            accumulator = accumulator << 6 | sextet
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard bits < 6, padding <= 2 else { throw invalid("base64 data", "a truncated group", at: index) }
        index += 1
        guard index < count, text[index] == Byte.greater else {
            throw invalid("base64 data", "missing `>` before " + found(at: index), at: index)
        }
        index += 1
        try self.count(contentBytes: bytes.count, at: dataStart)
        return .data(Data(bytes))
    }

    // MARK: GNUstep typed values

    /// `<*I12>`, `<*R1.5>`, `<*BY>`, `<*BN>`, `<*D2001-01-01 00:00:00 +0000>`.
    mutating func typed() throws(PlistError) -> Plist {
        let valueStart = index
        index += 2
        guard index < text.count else { throw error(.truncated(what: "a GNUstep value"), at: valueStart) }
        let type = text[index]
        index += 1
        let bodyStart = index
        while index < text.count && text[index] != Byte.greater { index += 1 }
        guard index < text.count else { throw error(.truncated(what: "a GNUstep value"), at: valueStart) }
        let body = String(decoding: text[bodyStart..<index], as: UTF8.self)
        index += 1
        try count(contentBytes: 0, at: valueStart)
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
            guard let seconds = GNUstepDate.seconds(from: Array(text[bodyStart..<(index - 1)])) else {
                throw invalid("date", body, at: bodyStart)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        default:
            throw invalid("GNUstep value", "<*" + String(UnicodeScalar(type)) + body + ">", at: valueStart)
        }
    }

}
