/// Why a property list could not be read or written, and where.
///
/// `description` is a complete one-line message that names the problem and its location: a
/// byte offset for binary input (`byte 1042: a dictionary key is not a string (marker 0x10)`),
/// a line and column for text (`3:14: <integer> holds "12x", which is not an integer`).
public struct PlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A kind of problem. New codes may come in later versions, so compare with `==` or switch
    /// with a `default:` case; the message and location say the rest.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as spelled in Swift (`truncated`, `tooDeep`).
        public let description: String

        private init(_ name: String) { description = name }

        /// The input has no bytes.
        public static let emptyInput = Code("emptyInput")

        /// The input is none of the property-list formats this package knows.
        public static let unknownFormat = Code("unknownFormat")

        /// The input does not start with the binary magic `bplist`.
        public static let badMagic = Code("badMagic")

        /// The binary header names a version other than `00`.
        public static let unsupportedVersion = Code("unsupportedVersion")

        /// The input ends before the structure it describes.
        public static let truncated = Code("truncated")

        /// A trailer field holds an impossible value.
        public static let invalidTrailer = Code("invalidTrailer")

        /// The offset table does not end where the trailer starts.
        public static let misplacedOffsetTable = Code("misplacedOffsetTable")

        /// An offset-table entry points outside the object area.
        public static let objectOffsetOutOfRange = Code("objectOffsetOutOfRange")

        /// An object reference names an object that does not exist.
        public static let referenceOutOfRange = Code("referenceOutOfRange")

        /// A byte that starts no known object type.
        public static let invalidMarker = Code("invalidMarker")

        /// A length or count field that is not a valid non-negative integer.
        public static let invalidLength = Code("invalidLength")

        /// A count whose objects cannot fit in the input.
        public static let lengthPastEnd = Code("lengthPastEnd")

        /// An integer or UID too large to represent.
        public static let numberOutOfRange = Code("numberOutOfRange")

        /// An ASCII string object holds a byte above 0x7F.
        public static let nonASCIIString = Code("nonASCIIString")

        /// UTF-16 text (or a UTF-16 string object) holds an unpaired surrogate.
        public static let invalidUTF16 = Code("invalidUTF16")

        /// UTF-32 text holds a value that is not a Unicode scalar.
        public static let invalidUTF32 = Code("invalidUTF32")

        /// A dictionary key that is not a string.
        public static let nonStringKey = Code("nonStringKey")

        /// A container that contains itself, directly or not.
        public static let cycle = Code("cycle")

        /// Containers nested deeper than the limit.
        public static let tooDeep = Code("tooDeep")

        /// More values than the limit (shared references counted each time they are used).
        public static let tooManyObjects = Code("tooManyObjects")

        /// More string and data content than the limit (shared references counted each time they are used).
        public static let tooMuchContent = Code("tooMuchContent")

        /// Writing would produce more bytes than the limit.
        public static let outputTooLarge = Code("outputTooLarge")

        /// The XML is not well-formed (the message gives the XML parser's reason).
        public static let malformedXML = Code("malformedXML")

        /// An element that property lists do not have.
        public static let unknownElement = Code("unknownElement")

        /// An element where it may not stand (inside a leaf such as `<string>`, a nested `<plist>`).
        public static let misplacedElement = Code("misplacedElement")

        /// Text other than white space between elements.
        public static let unexpectedText = Code("unexpectedText")

        /// A `<key>` with no value after it.
        public static let keyWithoutValue = Code("keyWithoutValue")

        /// A value in a dictionary where a `<key>` belongs.
        public static let valueWithoutKey = Code("valueWithoutKey")

        /// More than one value at the top level.
        public static let multipleTopLevelValues = Code("multipleTopLevelValues")

        /// A document with no value in it.
        public static let noValue = Code("noValue")

        /// A leaf element whose text is not a valid value of its type.
        public static let invalidValue = Code("invalidValue")

        /// A DTD internal subset or entity declaration, which property lists never need.
        public static let dtdDeclaration = Code("dtdDeclaration")

        /// A file could not be read or written (the message gives the system's reason).
        public static let io = Code("io")

        /// The input is larger than what is read into memory under the read limits.
        public static let inputTooLarge = Code("inputTooLarge")

        /// Nothing at a key path (`keyPath` is as much of the path as names the missing value).
        public static let noValueAtKeyPath = Code("noValueAtKeyPath")

        /// A key path where a value is being added already holds one.
        public static let valueExistsAtKeyPath = Code("valueExistsAtKeyPath")

        /// A key path goes on into a value that is neither a dictionary nor an array.
        public static let notAContainer = Code("notAContainer")

        /// The value at a key path has another type than the one asked for.
        public static let unexpectedType = Code("unexpectedType")

        /// Text that breaks the grammar of its format (the message says how).
        public static let syntax = Code("syntax")

        /// A value the output format cannot hold.
        public static let unrepresentable = Code("unrepresentable")

        /// A streaming writer was called out of order (a container ended that is not open, a
        /// value without its key, finishing with containers open, ...).
        public static let writerMisuse = Code("writerMisuse")
    }

    /// What went wrong, with the details that go into the message. The readers and writers
    /// throw these; users see `code`, `message` and the location.
    package enum Kind: Hashable, Sendable {
        /// The input has no bytes.
        case emptyInput
        /// The input is none of the property-list formats this package knows.
        case unknownFormat
        /// The input does not start with the binary magic `bplist`.
        case badMagic
        /// The binary header names a version other than `00`.
        case unsupportedVersion(String)
        /// The input ends before the structure it describes (`what` names the structure).
        case truncated(what: String)
        /// A trailer field holds an impossible value (`field` names it).
        case invalidTrailer(field: String, value: UInt64)
        /// The offset table does not end where the trailer starts.
        case misplacedOffsetTable(tableOffset: UInt64, objectCount: UInt64, offsetSize: Int)
        /// An offset-table entry points outside the object area.
        case objectOffsetOutOfRange(object: Int, offset: UInt64)
        /// An object reference names an object that does not exist.
        case referenceOutOfRange(UInt64, objectCount: Int)
        /// A byte that starts no known object type.
        case invalidMarker(UInt8)
        /// A length or count field that is not a valid non-negative integer.
        case invalidLength
        /// A count whose objects cannot fit in the input.
        case lengthPastEnd(count: UInt64, unit: Int)
        /// An integer or UID too large to represent.
        case numberOutOfRange
        /// An ASCII string object holds a byte above 0x7F.
        case nonASCIIString
        /// UTF-16 text (or a UTF-16 string object) holds an unpaired surrogate.
        case invalidUTF16
        /// UTF-32 text holds a value that is not a Unicode scalar.
        case invalidUTF32
        /// A dictionary key that is not a string (`marker` is the key object's marker byte).
        case nonStringKey(marker: UInt8)
        /// A container that contains itself, directly or not.
        case cycle(object: Int)
        /// Containers nested deeper than the limit.
        case tooDeep(limit: Int)
        /// More values than the limit (shared references counted each time they are used).
        case tooManyObjects(limit: Int)
        /// More string and data content than the limit (shared references counted each time they are used).
        case tooMuchContent(limit: Int)
        /// Writing would produce more bytes than the limit.
        case outputTooLarge(limit: Int)
        /// The XML is not well-formed (`message` is the XML parser's).
        case malformedXML(String)
        /// An element that property lists do not have.
        case unknownElement(String)
        /// An element where it may not stand (inside a leaf such as `<string>`, a nested `<plist>`).
        case misplacedElement(String, parent: String)
        /// Text other than white space between elements.
        case unexpectedText
        /// A `<key>` with no value after it.
        case keyWithoutValue(String)
        /// A value in a dictionary where a `<key>` belongs.
        case valueWithoutKey(element: String)
        /// More than one value at the top level.
        case multipleTopLevelValues
        /// A document with no value in it.
        case noValue
        /// A leaf element whose text is not a valid value of its type.
        case invalidValue(element: String, text: String)
        /// A DTD internal subset or entity declaration, which property lists never need.
        case dtdDeclaration
        /// A file could not be read or written (`reason` is the system's explanation).
        case io(reason: String)
        /// The input is larger than `limit` bytes, the most read into memory under the read limits.
        case inputTooLarge(limit: Int)
        /// Nothing at a key path (`keyPath` is as much of it as names the missing value).
        case noValueAtKeyPath(String)
        /// A key path where a value is being added already holds one.
        case valueExistsAtKeyPath(String)
        /// A key path goes on into a value that is neither a dictionary nor an array.
        case notAContainer(keyPath: String, type: String)
        /// The value at a key path has another type than the one asked for.
        case unexpectedType(keyPath: String, expected: String, found: String)
        /// Text that breaks the grammar of its format (`detail` says how).
        case syntax(String)
        /// A value the output format cannot hold (`format` names it).
        case unrepresentable(keyPath: String, type: String, format: String)
        /// A streaming writer was called out of order (`detail` says how).
        case writerMisuse(String)
    }

    /// What went wrong, with its details.
    package var kind: Kind
    /// The byte offset in the input where the problem was found; `nil` when the problem
    /// concerns no place in the input (an empty input, a file that cannot be opened, a value
    /// a writer cannot hold).
    public var byteOffset: Int?
    /// The line and column (both from 1) in text input; `nil` for binary input.
    public var position: TextPosition?

    /// What went wrong.
    public var code: Code { kind.details.code }

    /// A sentence that says what is wrong, without the location. It is one line: control
    /// characters of key paths, keys and names in it are escaped (`\n`, `\u{1B}`).
    public var message: String { kind.details.message.escapingControlCharacters }

    /// The key path of the value the problem concerns, where there is one (a missing key, a
    /// value a format cannot hold).
    public var keyPath: String? {
        switch kind {
        case .noValueAtKeyPath(let keyPath), .valueExistsAtKeyPath(let keyPath): keyPath
        case .notAContainer(let keyPath, _), .unexpectedType(let keyPath, _, _), .unrepresentable(let keyPath, _, _):
            keyPath
        default: nil
        }
    }

    /// An error of `kind` found at `byteOffset` (and, in text, at `position`). Kinds that
    /// concern no place in the input keep no offset.
    package init(_ kind: Kind, at byteOffset: Int, position: TextPosition? = nil) {
        self.kind = kind
        self.byteOffset = kind.concernsInput ? byteOffset : nil
        self.position = kind.concernsInput ? position : nil
    }

    /// The problem and its location on one line.
    public var description: String { described(message) }

    /// `description` with the hint that ends a limit's message, which names the library's
    /// option ("raise maxObjects to allow more"), replaced by `hint`: for a tool whose options
    /// are spelled otherwise. Other errors are described as they are.
    package func description(limitHint hint: String) -> String {
        let text = message
        guard Self.limitCodes.contains(code), let start = text.ranges(of: " (raise ").last else {
            return described(text)
        }
        return described(text[..<start.lowerBound] + " (" + hint + ")")
    }

    private static let limitCodes: Set<Code> = [
        .tooDeep, .tooManyObjects, .tooMuchContent, .outputTooLarge, .inputTooLarge,
    ]

    private func described(_ message: String) -> String {
        if let position { return "\(position.line):\(position.column): \(message)" }
        if let byteOffset { return "byte \(byteOffset): \(message)" }
        return message
    }
}

extension PlistError.Kind {
    /// Whether the problem lies at a place in the input, which the error then names.
    var concernsInput: Bool {
        switch self {
        case .emptyInput, .unknownFormat, .io, .inputTooLarge, .noValueAtKeyPath, .valueExistsAtKeyPath, .notAContainer,
            .unexpectedType, .unrepresentable, .outputTooLarge, .writerMisuse:
            false
        default: true
        }
    }

    /// The public code of this kind, and a sentence that says what is wrong, without the
    /// location: one case each, so a kind's code and message are written together.
    package var details: (code: PlistError.Code, message: String) {
        switch self {
        case .emptyInput:
            (.emptyInput, "the input is empty")
        case .unknownFormat:
            (.unknownFormat, "not a property list in any known format")
        case .badMagic:
            (.badMagic, "not a binary property list (it does not start with \"bplist\")")
        case .unsupportedVersion(let version):
            (.unsupportedVersion, "unsupported binary property list version \"\(version)\" (only \"00\" is known)")
        case .truncated(let what):
            (.truncated, "the input ends inside \(what)")
        case .invalidTrailer(let field, let value):
            (.invalidTrailer, "the trailer's \(field) is \(value), which is impossible")
        case .misplacedOffsetTable(let tableOffset, let objectCount, let offsetSize):
            (
                .misplacedOffsetTable,
                "the offset table (\(objectCount) entries of \(offsetSize) bytes at byte \(tableOffset)) "
                    + "does not end where the trailer starts"
            )
        case .objectOffsetOutOfRange(let object, let offset):
            (.objectOffsetOutOfRange, "object \(object) is at byte \(offset), outside the object area")
        case .referenceOutOfRange(let reference, let objectCount):
            (.referenceOutOfRange, "reference to object \(reference), but there are only \(objectCount) objects")
        case .invalidMarker(let marker):
            (.invalidMarker, "invalid object marker 0x\(hex(marker))")
        case .invalidLength:
            (
                .invalidLength,
                "invalid length: the count after a 0xF length nibble must be an integer object of 1, 2, 4 or 8 bytes"
            )
        case .lengthPastEnd(let count, let unit):
            (
                .lengthPastEnd,
                "a length of \(count) \(unit == 1 ? "bytes" : "items of \(unit) bytes") runs past the object area"
            )
        case .numberOutOfRange:
            (.numberOutOfRange, "integer out of range (property lists hold -2^63 through 2^64-1)")
        case .nonASCIIString:
            (.nonASCIIString, "an ASCII string object holds a byte above 0x7F")
        case .invalidUTF16:
            (.invalidUTF16, "invalid UTF-16: an unpaired surrogate")
        case .invalidUTF32:
            (.invalidUTF32, "invalid UTF-32: a value that is not a Unicode character")
        case .nonStringKey(let marker):
            (.nonStringKey, "a dictionary key is not a string (marker 0x\(hex(marker)))")
        case .cycle(let object):
            (.cycle, "object \(object) contains itself (a reference cycle)")
        case .tooDeep(let limit):
            (.tooDeep, "containers are nested deeper than the limit of \(limit) (raise maxDepth to allow more)")
        case .tooManyObjects(let limit):
            (
                .tooManyObjects,
                "more than \(limit) values, counting shared references each time (raise maxObjects to allow more)"
            )
        case .tooMuchContent(let limit):
            (
                .tooMuchContent,
                "more than \(limit) bytes of string and data content, counting shared references each time "
                    + "(raise maxContentBytes to allow more)"
            )
        case .outputTooLarge(let limit):
            (.outputTooLarge, "the output would be larger than \(limit) bytes (raise maxOutputBytes to allow more)")
        case .malformedXML(let message):
            (.malformedXML, "malformed XML: \(message)")
        case .unknownElement(let name):
            (.unknownElement, "unknown element <\(name)>")
        case .misplacedElement(let name, let parent):
            (.misplacedElement, "<\(name)> cannot stand inside <\(parent)>")
        case .unexpectedText:
            (.unexpectedText, "text outside of any value element")
        case .keyWithoutValue(let key):
            (.keyWithoutValue, "the key \(key.debugDescription) has no value")
        case .valueWithoutKey(let element):
            (.valueWithoutKey, "<\(element)> in a dictionary where a <key> belongs")
        case .multipleTopLevelValues:
            (.multipleTopLevelValues, "more than one value at the top level")
        case .noValue:
            (.noValue, "the document holds no value")
        case .invalidValue(let element, let text):
            (
                .invalidValue,
                "<\(element)> holds \(String(text.prefix(40)).debugDescription), which is not a valid \(element)"
            )
        case .dtdDeclaration:
            (.dtdDeclaration, "DTD declarations (internal subsets, entities) are not allowed in property lists")
        case .io(let reason):
            (.io, reason)
        case .inputTooLarge(let limit):
            (
                .inputTooLarge,
                "the input is larger than \(limit) bytes, the most read into memory under the read limits "
                    + "(raise maxContentBytes or maxObjects to allow more)"
            )
        case .noValueAtKeyPath(let keyPath):
            (.noValueAtKeyPath, "no value at key path \"\(keyPath)\"")
        case .valueExistsAtKeyPath(let keyPath):
            (.valueExistsAtKeyPath, "a value already exists at key path \"\(keyPath)\" (use replace to overwrite it)")
        case .notAContainer(let keyPath, let type):
            (
                .notAContainer,
                keyPath.isEmpty
                    ? "the top-level value is \(article(type)) \(type), not a dictionary or array"
                    : "the value at key path \"\(keyPath)\" is \(article(type)) \(type), not a dictionary or array"
            )
        case .syntax(let detail):
            (.syntax, detail)
        case .writerMisuse(let detail):
            (.writerMisuse, "streaming writer misused: \(detail)")
        case .unrepresentable(let keyPath, let type, let format):
            (
                .unrepresentable,
                (keyPath.isEmpty ? "the top-level value" : "the value at key path \"\(keyPath)\"")
                    + " is \(article(type)) \(type), which \(format) cannot hold"
            )
        case .unexpectedType(let keyPath, let expected, let found):
            (
                .unexpectedType,
                "the value at key path \"\(keyPath)\" is \(article(found)) \(found), not \(article(expected)) \(expected)"
            )
        }
    }
}

extension String {
    /// The text with every character that could end a line or steer a terminal written as an
    /// escape: line feed, carriage return and tab as `\n`, `\r`, `\t`, the other C0 and C1
    /// controls, DEL and the Unicode line and paragraph separators as `\u{1B}`. Messages are
    /// one line whatever the keys and names in them hold, so that none can add or forge a line
    /// of a report. Text without such characters is returned as it is, so escaping twice
    /// changes nothing.
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            guard Self.needsEscape(scalar) else {
                escaped.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return escaped
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}

/// A place in text input: line and column, both counted from 1 (columns in bytes).
public struct TextPosition: Hashable, Sendable {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// The position at `line`, `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// "an" before a vowel, else "a".
private func article(_ word: String) -> String {
    // "a uid": said "you-eye-dee".
    word.first.map { "aeiou".contains($0) } == true && !word.hasPrefix("uid") ? "an" : "a"
}

extension TextPosition {
    /// The line and byte column of `offset` in `text` (lines counted from `start`; `\n`, `\r`
    /// and `\r\n` each end a line). Computed only when an error is reported.
    init(of offset: Int, in text: [UInt8], from start: Int) {
        var line = 1
        var lineStart = start
        var position = start
        let end = min(offset, text.count)
        while position < end {
            let byte = text[position]
            position += 1
            if byte == 0x0A {
                line += 1
                lineStart = position
            } else if byte == 0x0D {
                if position < end, text[position] == 0x0A { position += 1 }
                line += 1
                lineStart = position
            }
        }
        self.init(line: line, column: offset - lineStart + 1)
    }
}
