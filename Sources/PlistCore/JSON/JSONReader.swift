#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads JSON (RFC 8259, strictly: no comments, no trailing commas, no leading zeros, no lone
/// surrogates, no control characters inside strings) into a `Plist`.
///
/// Numbers without a fraction or exponent that fit `Int64...UInt64` are integers; every other
/// number is a real. The typed values `JSONWriter` writes are read back: `{"$date": ...}`,
/// `{"$data": ...}`, `{"$uid": ...}`, `{"$real": ...}`, and `{"$dict": {...}}` for a dictionary
/// taken as it is. `null` is an error unless `PlistReadOptions.jsonNull` gives a value for it.
/// The text is UTF-8 (a byte-order mark is skipped; UTF-16 and UTF-32 are transcoded first).
enum JSONReader {
    static func read(_ input: [UInt8], options: PlistReadOptions) throws(PlistError) -> Plist {
        var parser = try JSONParser(input: input, options: options)
        return try parser.document()
    }

    /// Where the value at `path` (or the deepest value on it) begins in the JSON text.
    static func position(of path: [PlistPathStep], in input: [UInt8], options: PlistReadOptions) -> TextPosition? {
        guard var parser = try? JSONParser(input: input, options: options) else { return nil }
        parser.locator = PathLocator(path: path)
        _ = try? parser.document()
        return parser.locator?.mark.map { TextPosition(of: $0, in: parser.cursor.text, from: parser.cursor.start) }
    }
}

private struct JSONParser {
    var cursor: TextCursor
    let options: PlistReadOptions
    var scratch: [UInt8] = []
    /// Set to find where a value begins.
    var locator: PathLocator<Int>?
    /// The key storages of the objects read, shared by objects with the same keys.
    var keySets = SharedKeySets()

    /// A parser at the start of `input`, transcoded to UTF-8 when it is UTF-16 or UTF-32.
    init(input: [UInt8], options: PlistReadOptions) throws(PlistError) {
        cursor = try TextCursor(input: input, options: options)
        self.options = options
    }

    /// The value of the whole text.
    mutating func document() throws(PlistError) -> Plist {
        cursor.skipSpace()
        let value = try self.value(depth: 0)
        cursor.skipSpace()
        guard cursor.index == cursor.text.count else {
            throw invalid(
                "JSON", "more text after the top-level value: " + cursor.found(at: cursor.index), at: cursor.index)
        }
        return value
    }

    // MARK: Errors and limits

    func invalid(_ element: String, _ detail: String, at offset: Int) -> PlistError {
        cursor.error(.syntax(element == "JSON" ? detail : element + ": " + detail), at: offset)
    }

    // MARK: Values

    // The recursion runs through `value`, `array`, `object` and `taggedValue` once per level of
    // nesting, 512 levels deep at most. Their frames stay small (a debug build gives every
    // temporary its own stack slot): scalars and error messages are made in other functions.

    mutating func value(depth: Int) throws(PlistError) -> Plist {
        guard cursor.index < cursor.text.count else { throw cursor.error(.noValue, at: cursor.index) }
        switch cursor.text[cursor.index] {
        case 0x7B:  // {
            try enterContainer(depth: depth)
            return try object(depth: depth + 1, readsTags: true)
        case 0x5B:  // [
            try enterContainer(depth: depth)
            return try array(depth: depth + 1)
        default:
            return try scalar()
        }
    }

    /// Checks the depth and counts the container that starts at `index`.
    mutating func enterContainer(depth: Int) throws(PlistError) {
        do throws(PlistError) { try cursor.budget.enter(depth: depth, at: cursor.index) } catch {
            throw cursor.located(error)
        }
        try cursor.count(contentBytes: 0, at: cursor.index)
    }

    /// The array that starts at `index`, whose elements are at `depth`.
    mutating func array(depth: Int) throws(PlistError) -> Plist {
        let arrayStart = cursor.index
        cursor.index += 1
        var elements: [Plist] = []
        cursor.skipSpace()
        if cursor.index < cursor.text.count, cursor.text[cursor.index] == 0x5D {
            cursor.index += 1
            return .array(elements)
        }
        while true {
            try cursor.skipSpace(inside: "an array", startingAt: arrayStart)
            locator?.enter(.index(elements.count), depth: depth, at: cursor.index)
            elements.append(try value(depth: depth))
            try cursor.skipSpace(inside: "an array", startingAt: arrayStart)
            if cursor.text[cursor.index] == 0x2C {
                cursor.index += 1
            } else if cursor.text[cursor.index] == 0x5D {
                cursor.index += 1
                return .array(elements)
            } else {
                throw unexpected("array", "`,` or `]`")
            }
        }
    }

    /// A string, number, `true`, `false` or `null` at `index`.
    mutating func scalar() throws(PlistError) -> Plist {
        let valueStart = cursor.index
        switch cursor.text[cursor.index] {
        case 0x22:  // "
            let string = try self.string()
            try cursor.count(contentBytes: string.utf8.count, at: valueStart)
            return .string(string)
        case 0x74: return try literal("true", .bool(true))
        case 0x66: return try literal("false", .bool(false))
        case 0x6E:
            guard let null = options.jsonNull else {
                throw invalid(
                    "JSON", "null has no property-list value (PlistReadOptions.jsonNull can give it one)",
                    at: cursor.index)
            }
            return try literal("null", null)
        case 0x2D, 0x30...0x39:
            try cursor.count(contentBytes: 0, at: cursor.index)
            return try number()
        default:
            throw unexpected("JSON", "a value")
        }
    }

    /// `context: expected <expectation>, found <what is at index>`, at `index`.
    func unexpected(_ context: String, _ expectation: String) -> PlistError {
        invalid(context, "expected " + expectation + ", found " + cursor.found(at: cursor.index), at: cursor.index)
    }

    mutating func literal(_ word: String, _ value: Plist) throws(PlistError) -> Plist {
        let wordStart = cursor.index
        for byte in word.utf8 {
            guard cursor.index < cursor.text.count, cursor.text[cursor.index] == byte else {
                throw invalid("JSON", "expected `\(word)`", at: wordStart)
            }
            cursor.index += 1
        }
        try cursor.count(contentBytes: 0, at: wordStart)
        return value
    }

    /// An object; with `readsTags`, one whose first key is a tag is a typed value.
    mutating func object(depth: Int, readsTags: Bool) throws(PlistError) -> Plist {
        let objectStart = cursor.index
        cursor.index += 1
        var keys: [String] = []
        var values: [Plist] = []
        cursor.skipSpace()
        if cursor.index < cursor.text.count, cursor.text[cursor.index] == 0x7D {
            cursor.index += 1
            return .dictionary([:])
        }
        while true {
            let (key, keyStart) = try self.key(objectStart: objectStart)
            if readsTags, keys.isEmpty,
                let tagged = try taggedValue(key: key, objectStart: objectStart, depth: depth)
            {
                return tagged
            }
            try cursor.add(contentBytes: key.utf8.count, at: keyStart)
            locator?.enter(.key(key), depth: depth, at: cursor.index)
            keys.append(key)
            values.append(try value(depth: depth))
            try cursor.skipSpace(inside: "an object", startingAt: objectStart)
            if cursor.text[cursor.index] == 0x2C {
                cursor.index += 1
            } else if cursor.text[cursor.index] == 0x7D {
                cursor.index += 1
                return .dictionary(keySets.dictionary(keys: keys, values: values))
            } else {
                throw unexpected("object", "`,` or `}`")
            }
        }
    }

    /// A key, its `:` and the space after it, in the object that starts at `objectStart`.
    mutating func key(objectStart: Int) throws(PlistError) -> (key: String, start: Int) {
        try cursor.skipSpace(inside: "an object", startingAt: objectStart)
        guard cursor.text[cursor.index] == 0x22 else { throw unexpected("object", "a key in double quotes") }
        let keyStart = cursor.index
        let key = try string()
        try cursor.skipSpace(inside: "an object", startingAt: objectStart)
        guard cursor.text[cursor.index] == 0x3A else { throw unexpected("object", "`:` after the key") }
        cursor.index += 1
        try cursor.skipSpace(inside: "an object", startingAt: objectStart)
        return (key, keyStart)
    }

    // MARK: Typed values

    /// The value of a typed object `{"$date": ...}` whose first key is `key`, or `nil` when the
    /// key is no tag. The tag must be the object's only key.
    mutating func taggedValue(key: String, objectStart: Int, depth: Int) throws(PlistError) -> Plist? {
        guard key.utf8.first == 0x24, let tag = JSONTag(rawValue: key) else { return nil }
        let contentStart = cursor.index
        let content: Plist
        if tag == .dictionary, cursor.text[cursor.index] == 0x7B {
            try cursor.count(contentBytes: 0, at: cursor.index)
            content = try object(depth: depth + 1, readsTags: false)
        } else {
            content = try value(depth: depth)
        }
        try endOfTaggedValue(tag, objectStart: objectStart)
        return try typed(tag, content, at: contentStart)
    }

    /// The `}` that must follow a typed value's content.
    mutating func endOfTaggedValue(_ tag: JSONTag, objectStart: Int) throws(PlistError) {
        try cursor.skipSpace(inside: "an object", startingAt: objectStart)
        guard cursor.text[cursor.index] == 0x7D else {
            throw invalid(tag.rawValue, "a typed value must be the object's only key", at: cursor.index)
        }
        cursor.index += 1
    }

    /// The typed value `tag` makes of `content`. Apart from `taggedValue`, so that the frames of
    /// the recursion through nested typed values stay small.
    func typed(_ tag: JSONTag, _ content: Plist, at contentStart: Int) throws(PlistError) -> Plist {
        let key = tag.rawValue
        switch (tag, content) {
        case (.dictionary, .dictionary):
            return content
        case (.date, _):
            guard let seconds = JSONTag.dateSeconds(from: content) else {
                throw invalid(
                    "$date", "expected an ISO 8601 date or seconds since 2001, found \(content)", at: contentStart)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.data, .string(let base64)):
            guard let data = Data(base64Encoded: base64) else { throw invalid("$data", "not base64", at: contentStart) }
            return .data(data)
        case (.uid, .integer(let integer)):
            guard let uid = integer.uint64 else { throw invalid("$uid", "a UID is not negative", at: contentStart) }
            return .uid(uid)
        case (.real, .string(let name)):
            guard let real = JSONTag.nonFinite[name] else {
                throw invalid("$real", "expected \"nan\", \"inf\" or \"-inf\"", at: contentStart)
            }
            return .real(real)
        default:
            throw invalid(key, "unexpected \(content.typeName) (\(content))", at: contentStart)
        }
    }

    // MARK: Strings

    mutating func string() throws(PlistError) -> String {
        let quote = cursor.index
        cursor.index += 1
        let contentStart = cursor.index
        // Fast path: no escapes.
        while cursor.index < cursor.text.count {
            let byte = cursor.text[cursor.index]
            if byte == 0x22 {
                let bytes = cursor.text[contentStart..<cursor.index]
                cursor.index += 1
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    throw invalid("string", "invalid UTF-8", at: firstInvalidUTF8(from: contentStart))
                }
                return string
            }
            if byte == 0x5C { break }
            if byte < 0x20 {
                throw invalid(
                    "string", "a control character must be escaped (\(cursor.found(at: cursor.index)))",
                    at: cursor.index)
            }
            cursor.index += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: cursor.text[contentStart..<cursor.index])
        while cursor.index < cursor.text.count {
            let byte = cursor.text[cursor.index]
            switch byte {
            case 0x22:
                cursor.index += 1
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    throw invalid("string", "invalid UTF-8", at: firstInvalidUTF8(from: contentStart))
                }
                return string
            case 0x5C:
                try escape()
            case 0x00..<0x20:
                throw invalid(
                    "string", "a control character must be escaped (\(cursor.found(at: cursor.index)))",
                    at: cursor.index)
            default:
                scratch.append(byte)
                cursor.index += 1
            }
        }
        throw cursor.error(.truncated(what: "a string"), at: quote)
    }

    /// Where the first byte that is not valid UTF-8 is, in the string whose text starts at
    /// `contentStart` (escapes are ASCII, so checking the text as it is finds the same byte).
    func firstInvalidUTF8(from contentStart: Int) -> Int {
        var bytes = cursor.text[contentStart...].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = contentStart
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset
            case .emptyInput: return contentStart
            }
        }
    }

    mutating func escape() throws(PlistError) {
        let escapeStart = cursor.index
        cursor.index += 1
        let byte = try cursor.take("a string", startingAt: escapeStart)
        switch byte {
        case 0x22, 0x5C, 0x2F: scratch.append(byte)
        case 0x62: scratch.append(0x08)
        case 0x66: scratch.append(0x0C)
        case 0x6E: scratch.append(0x0A)
        case 0x72: scratch.append(0x0D)
        case 0x74: scratch.append(0x09)
        case 0x75:
            let unit = try hex4(at: escapeStart)
            var scalar = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard cursor.index + 1 < cursor.text.count, cursor.text[cursor.index] == 0x5C,
                    cursor.text[cursor.index + 1] == 0x75
                else {
                    throw invalid("string", "a lone surrogate \\u\(String(unit, radix: 16))", at: escapeStart)
                }
                cursor.index += 2
                let low = try hex4(at: escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw invalid("string", "a lone surrogate \\u\(String(unit, radix: 16))", at: escapeStart)
                }
                scalar = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw invalid("string", "a lone surrogate \\u\(String(unit, radix: 16))", at: escapeStart)
            }
            UnicodeText.appendUTF8(scalar, to: &scratch)
        default:
            throw invalid("string", "unknown escape \\" + String(UnicodeScalar(byte)), at: escapeStart)
        }
    }

    mutating func hex4(at escapeStart: Int) throws(PlistError) -> UInt16 {
        guard cursor.index + 4 <= cursor.text.count else {
            throw cursor.error(.truncated(what: "a \\u escape"), at: escapeStart)
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = cursor.text[cursor.index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x37
            case 0x61...0x66: digit = byte - 0x57
            default: throw invalid("string", "\\u needs four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            cursor.index += 1
        }
        return value
    }

    // MARK: Numbers

    mutating func number() throws(PlistError) -> Plist {
        let numberStart = cursor.index
        let negative = cursor.text[cursor.index] == 0x2D
        if negative { cursor.index += 1 }
        guard cursor.index < cursor.text.count, (0x30...0x39).contains(cursor.text[cursor.index]) else {
            throw invalid("number", "a digit must follow `-`", at: numberStart)
        }
        var magnitude: UInt64 = 0
        var overflow = false
        if cursor.text[cursor.index] == 0x30 {
            cursor.index += 1
            if cursor.index < cursor.text.count, (0x30...0x39).contains(cursor.text[cursor.index]) {
                throw invalid("number", "leading zeros are not allowed", at: numberStart)
            }
        } else {
            while cursor.index < cursor.text.count, (0x30...0x39).contains(cursor.text[cursor.index]) {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(cursor.text[cursor.index] - 0x30))
                overflow = overflow || o1 || o2
                magnitude = sum
                cursor.index += 1
            }
        }
        var isReal = false
        if cursor.index < cursor.text.count, cursor.text[cursor.index] == 0x2E {
            isReal = true
            cursor.index += 1
            try digits(numberStart, "a digit must follow `.`")
        }
        if cursor.index < cursor.text.count, cursor.text[cursor.index] == 0x65 || cursor.text[cursor.index] == 0x45 {
            isReal = true
            cursor.index += 1
            if cursor.index < cursor.text.count, cursor.text[cursor.index] == 0x2B || cursor.text[cursor.index] == 0x2D
            {
                cursor.index += 1
            }
            try digits(numberStart, "the exponent needs digits")
        }
        if !isReal, !overflow {
            if !negative { return .integer(PlistInteger(magnitude)) }
            if magnitude <= UInt64(Int64.max) { return .integer(PlistInteger(-Int64(magnitude))) }
            if magnitude == UInt64(Int64.max) + 1 { return .integer(PlistInteger(Int64.min)) }
        }
        let literal = String(decoding: cursor.text[numberStart..<cursor.index], as: UTF8.self)
        guard let real = Double(literal) else { throw invalid("number", literal, at: numberStart) }
        return .real(real)
    }

    mutating func digits(_ numberStart: Int, _ message: String) throws(PlistError) {
        let digitsStart = cursor.index
        while cursor.index < cursor.text.count, (0x30...0x39).contains(cursor.text[cursor.index]) { cursor.index += 1 }
        guard cursor.index > digitsStart else { throw invalid("number", message, at: numberStart) }
    }
}
