import PlistCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Builds a `Plist` from the events of an XML parser (element starts and ends, text), checking
/// the property-list grammar as CoreFoundation does and the read limits, or streams the values
/// to a `BinaryPlistStreamWriter` as they end: the same grammar, scalars and dictionary rules
/// (a repeated key keeps its first place and takes its last value, a lone `CF$UID` integer is
/// a UID) either way. It knows nothing of libxml2: errors are thrown as kinds, and the caller
/// adds the position.
struct XMLTreeBuilder {
    /// The elements of the property-list vocabulary.
    enum Element: String {
        case plist, dict, array, key, string, integer, real, date, data
        case `true`, `false`

        var isLeaf: Bool { self != .plist && self != .dict && self != .array }
    }

    private struct Dictionary {
        var keys: [String] = []
        var values: [Plist] = []
        var pendingKey: String?
        /// Streaming: the entries so far, repeated keys counted.
        var entryCount = 0
        /// Streaming: a first key `CF$UID` (and its integer) not handed to the writer yet,
        /// since the dictionary may be a UID.
        var held: Held = .none
    }

    private enum Held {
        case none, key
        case integer(Plist)
    }

    /// Set to stream the values instead of building them.
    private var stream: BinaryPlistStreamWriter?
    private var hasResult = false

    private var budget: ReadBudget
    /// How `<date>` text is read.
    private let rules: FoundationRules
    /// The key storages of the dictionaries built, shared by dictionaries with the same keys.
    private var keySets = SharedKeySets()
    /// Invariant: `open` lists the open elements; `arrays` and `dictionaries` hold the contents
    /// of the open `<array>` and `<dict>` elements, in the same order.
    private var open: [Element] = []
    private var arrays: [[Plist]] = []
    private var dictionaries: [Dictionary] = []
    private var containerDepth = 0
    /// Text of the open leaf element.
    private var text: [UInt8] = []
    private var result: Plist?

    /// Set to find where a value begins.
    var locator: PathLocator<TextPosition>?

    init(options: PlistReadOptions) {
        budget = ReadBudget(options)
        rules = options.rules
    }

    /// The innermost element open.
    var innermostElement: Element? { open.last }

    /// A builder handing the values to `stream` instead of building them.
    init(options: PlistReadOptions, streamingTo stream: BinaryPlistStreamWriter) {
        budget = ReadBudget(options)
        rules = options.rules
        self.stream = stream
    }

    /// An element starts; `position`, where it is, is needed only by the locator.
    mutating func start(_ element: Element, at position: TextPosition?) throws(Rejection) {
        if let parent = open.last {
            if parent.isLeaf { throw Rejection(.misplacedElement(element.rawValue, parent: parent.rawValue)) }
            if element == .plist { throw Rejection(.misplacedElement("plist", parent: parent.rawValue)) }
        }
        switch element {
        case .plist:
            if hasResult { throw Rejection(.multipleTopLevelValues) }
        case .key:
            guard open.last == .dict else {
                throw Rejection(.misplacedElement("key", parent: (open.last ?? .plist).rawValue))
            }
            if let key = dictionaries[dictionaries.count - 1].pendingKey { throw Rejection(.keyWithoutValue(key)) }
        default:
            try checkValuePosition(element)
            if let position {
                if open.last == .dict, let key = dictionaries[dictionaries.count - 1].pendingKey {
                    locator?.enter(.key(key), depth: containerDepth, at: position)
                } else if open.last == .array {
                    locator?.enter(.index(arrays[arrays.count - 1].count), depth: containerDepth, at: position)
                } else {
                    locator?.enterTop(at: position)
                }
            }
        }
        if element == .dict || element == .array {
            do throws(PlistError) {
                try budget.enter(depth: containerDepth, at: 0)
            } catch {
                throw Rejection(error.kind)
            }
            containerDepth += 1
            if stream != nil {
                try releaseHeldKey()
                try streaming { (writer) throws(PlistError) in
                    if element == .dict { try writer.beginDictionary() } else { try writer.beginArray() }
                }
            }
            if element == .dict { dictionaries.append(Dictionary()) } else { arrays.append([]) }
        }
        open.append(element)
        text.removeAll(keepingCapacity: true)
    }

    /// Text inside the open element: kept for leaves, else only white space is allowed.
    mutating func characters(_ chunk: some Collection<UInt8>) throws(Rejection) {
        if let element = open.last, element.isLeaf {
            text.append(contentsOf: chunk)
        } else if !chunk.allSatisfy(TextCursor.isSpace) {
            throw Rejection(.unexpectedText)
        }
    }

    mutating func end(_ element: Element) throws(Rejection) {
        open.removeLast()
        switch element {
        case .plist:
            if !hasResult { throw Rejection(.noValue) }
        case .key:
            let key = String(decoding: text, as: UTF8.self)
            try count(contentBytes: text.count)
            dictionaries[dictionaries.count - 1].pendingKey = key
            if stream != nil { try streamKey(key) }
        case .array:
            containerDepth -= 1
            let elements = arrays.removeLast()
            guard stream != nil else { return try deliver(.array(elements)) }
            try streaming { (writer) throws(PlistError) in try writer.endArray() }
            try delivered()
        case .dict:
            containerDepth -= 1
            let dictionary = dictionaries.removeLast()
            if let key = dictionary.pendingKey { throw Rejection(.keyWithoutValue(key)) }
            guard stream != nil else { return try deliver(dictionaryValue(dictionary)) }
            try streaming { (writer) throws(PlistError) in
                if case .integer(let value) = dictionary.held, dictionary.entryCount == 1, let uid = value.uint64 {
                    try writer.endEmptyDictionary(replacingWith: .uid(uid))
                } else {
                    try writer.endDictionary()
                }
            }
            try delivered()
        case .string:
            try count(contentBytes: text.count)
            try deliver(.string(String(decoding: text, as: UTF8.self)))
        case .integer:
            try deliver(.integer(try XMLScalars.integer(text.span)))
        case .real:
            try deliver(.real(try XMLScalars.real(text.span)))
        case .date:
            try deliver(.date(try XMLScalars.date(text.span, rules: rules)))
        case .data:
            let data = XMLScalars.base64(text.span)
            try count(contentBytes: data.count)
            try deliver(.data(data))
        case .true, .false:
            guard text.allSatisfy(TextCursor.isSpace) else {
                throw Rejection(.invalidValue(element: element.rawValue, text: String(decoding: text, as: UTF8.self)))
            }
            try deliver(.bool(element == .true))
        }
    }

    /// The value of the document, once it has ended.
    func finish() throws(Rejection) -> Plist {
        guard let result else { throw Rejection(.noValue) }
        return result
    }

    /// Streaming: writes the end of the binary file, once the document has ended.
    mutating func finishStream() throws(Rejection) {
        guard hasResult else { throw Rejection(.noValue) }
        try streaming { (writer) throws(PlistError) in try writer.finish() }
    }

    private func checkValuePosition(_ element: Element) throws(Rejection) {
        switch open.last {
        case nil, .plist:
            if hasResult { throw Rejection(.multipleTopLevelValues) }
        case .dict:
            if dictionaries[dictionaries.count - 1].pendingKey == nil {
                throw Rejection(.valueWithoutKey(element: element.rawValue))
            }
        default:
            break
        }
    }

    private mutating func deliver(_ value: Plist) throws(Rejection) {
        guard stream == nil else { return try streamScalar(value) }
        do throws(PlistError) { try budget.count(objects: 1, at: 0) } catch { throw Rejection(error.kind) }
        hasResult = hasResult || open.last != .array && open.last != .dict
        switch open.last {
        case .array:
            arrays[arrays.count - 1].append(value)
        case .dict:
            let index = dictionaries.count - 1
            guard let key = dictionaries[index].pendingKey else { preconditionFailure("checked at the start") }
            dictionaries[index].keys.append(key)
            dictionaries[index].values.append(value)
            dictionaries[index].pendingKey = nil
        default:
            result = value
        }
    }

    /// Streaming: hands a scalar to the writer, or holds the integer of a first key `CF$UID`.
    private mutating func streamScalar(_ value: Plist) throws(Rejection) {
        if open.last == .dict, case .key = dictionaries[dictionaries.count - 1].held, value.uint64 != nil {
            dictionaries[dictionaries.count - 1].held = .integer(value)
        } else {
            try releaseHeldKey()
            try streaming { (writer) throws(PlistError) in try writer.append(value) }
        }
        try delivered()
    }

    /// Streaming: a value was handed to the writer (or held) where the next value goes.
    private mutating func delivered() throws(Rejection) {
        do throws(PlistError) { try budget.count(objects: 1, at: 0) } catch { throw Rejection(error.kind) }
        switch open.last {
        case .dict:
            dictionaries[dictionaries.count - 1].pendingKey = nil
            dictionaries[dictionaries.count - 1].entryCount += 1
        case .array:
            break
        default:
            hasResult = true
        }
    }

    /// Streaming: a key ended in the innermost dictionary (its `pendingKey` now).
    private mutating func streamKey(_ key: String) throws(Rejection) {
        let index = dictionaries.count - 1
        if case .integer(let value) = dictionaries[index].held {
            dictionaries[index].held = .none
            try streaming { (writer) throws(PlistError) in
                try writer.key("CF$UID")
                try writer.append(value)
            }
        }
        if key == "CF$UID", dictionaries[index].entryCount == 0 {
            dictionaries[index].held = .key
        } else {
            try streaming { (writer) throws(PlistError) in try writer.key(key) }
        }
    }

    /// Streaming: the value of the innermost dictionary's held key `CF$UID` is no UID's.
    private mutating func releaseHeldKey() throws(Rejection) {
        guard open.last == .dict, case .key = dictionaries[dictionaries.count - 1].held else { return }
        dictionaries[dictionaries.count - 1].held = .none
        try streaming { (writer) throws(PlistError) in try writer.key("CF$UID") }
    }

    private mutating func streaming(
        _ body: (inout BinaryPlistStreamWriter) throws(PlistError) -> Void
    ) throws(Rejection) {
        do throws(PlistError) { try body(&stream!) } catch { throw Rejection(error.kind) }
    }

    private mutating func count(contentBytes bytes: Int) throws(Rejection) {
        do throws(PlistError) { try budget.count(contentBytes: bytes, at: 0) } catch { throw Rejection(error.kind) }
    }

    /// The dictionary, later values replacing earlier ones for a repeated key (the same scalars;
    /// the key keeps its first position), or the UID a lone non-negative integer `CF$UID` entry stands for, as
    /// CoreFoundation reads it (but without cutting the number to 32 bits).
    private mutating func dictionaryValue(_ dictionary: Dictionary) -> Plist {
        if dictionary.keys.count == 1, dictionary.keys[0] == "CF$UID", let uid = dictionary.values[0].uint64 {
            return .uid(uid)
        }
        return .dictionary(keySets.dictionary(keys: dictionary.keys, values: dictionary.values))
    }
}
