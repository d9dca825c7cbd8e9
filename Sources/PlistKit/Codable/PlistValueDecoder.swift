#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A coding path built as a linked list, so that decoding a value costs no array; the array is
/// made only when a container or an error asks for it.
indirect enum CodingPathNode: Sendable {
    case root
    case key(any CodingKey & Sendable, CodingPathNode)
    case index(Int, CodingPathNode)

    var array: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let key, let parent):
                keys.append(key)
                node = parent
            case .index(let index, let parent):
                keys.append(PlistCodingKey(index: index))
                node = parent
            }
        }
    }

    func appending(_ key: some CodingKey) -> CodingPathNode {
        .key(PlistCodingKey(key), self)
    }
}

/// A coding key for array indexes, `super`, and keys made by key strategies.
struct PlistCodingKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init(_ key: some CodingKey) {
        stringValue = key.stringValue
        intValue = key.intValue
    }

    static let superKey = PlistCodingKey(stringValue: "super")
}

/// A value being decoded: in a `Plist` tree, or an object of a binary file read as it is needed.
enum DecodingNode {
    case value(Plist)
    case object(Int)
}

/// The `Decoder` for one value.
final class PlistValueDecoder: Decoder {
    struct Options {
        var userInfo: [CodingUserInfoKey: any Sendable]
        var keys: PlistDecoder.KeyDecodingStrategy
        var dates: PlistDecoder.DateDecodingStrategy

        /// The coding key's string that the key strategy makes of `key`, a key of the
        /// dictionary at `codingPath`.
        func codingKeyName(of key: String, at codingPath: @autoclosure () -> [any CodingKey]) -> String {
            switch keys {
            case .useDefaultKeys: key
            case .convertFromSnakeCase: KeyCase.camelCase(fromSnakeCase: key)
            case .custom(let convert): convert(codingPath() + [PlistCodingKey(stringValue: key)]).stringValue
            }
        }
    }

    let node: DecodingNode
    let path: CodingPathNode
    let options: Options
    /// The binary file `.object` nodes are in.
    let objects: BinaryObjects?
    /// How many containers this value is inside.
    let depth: Int

    init(node: DecodingNode, path: CodingPathNode, options: Options, objects: BinaryObjects?, depth: Int = 0) {
        self.node = node
        self.path = path
        self.options = options
        self.objects = objects
        self.depth = depth
    }

    var codingPath: [any CodingKey] { path.array }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    /// The decoder for a value inside this one.
    func child(_ node: DecodingNode, path: CodingPathNode) -> PlistValueDecoder {
        PlistValueDecoder(node: node, path: path, options: options, objects: objects, depth: depth + 1)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch node {
        case .value(.dictionary(let entries)):
            if case .useDefaultKeys = options.keys {
                return KeyedDecodingContainer(KeyedContainer<Key, _>(decoder: self, entries: TreeEntries(entries)))
            }
            return KeyedDecodingContainer(
                KeyedContainer<Key, _>(
                    decoder: self, entries: convertedKeys(entries.keys.elements, entries.values.map { .value($0) })))
        case .object(let ref) where objects!.kind(of: ref) == .dictionary:
            let objects = objects!
            let (keys, values) = try readingFile { () throws(PlistError) in try objects.entries(of: ref, depth: depth) }
            let entries = BinaryEntries(objects: objects, keys: keys, values: values)
            if case .useDefaultKeys = options.keys {
                return KeyedDecodingContainer(KeyedContainer<Key, _>(decoder: self, entries: entries))
            }
            return KeyedDecodingContainer(
                KeyedContainer<Key, _>(
                    decoder: self,
                    entries: convertedKeys(keys.map(objects.keyText), values.map { .object($0) })))
        default:
            throw mismatch([String: Any].self, node, path)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch node {
        case .value(.array(let elements)):
            return UnkeyedContainer(decoder: self, elements: TreeElements(elements: elements))
        case .object(let ref) where objects!.kind(of: ref) == .array:
            let objects = objects!
            let elements = try readingFile { () throws(PlistError) in try objects.elements(of: ref, depth: depth) }
            return UnkeyedContainer(decoder: self, elements: BinaryElements(refs: elements))
        default:
            throw mismatch([Any].self, node, path)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    /// The entries with their keys as the key strategy makes them.
    private func convertedKeys(_ keys: [String], _ values: [DecodingNode]) -> ConvertedEntries {
        var converted = OrderedDictionary<String, DecodingNode>(minimumCapacity: keys.count)
        for (key, value) in zip(keys, values) {
            let made = options.codingKeyName(of: key, at: codingPath)
            if converted[made] == nil { converted[made] = value }
        }
        return ConvertedEntries(entries: converted)
    }

    /// Runs `read` on the binary file, turning its errors into `DecodingError`s at this value.
    func readingFile<T>(_ read: () throws(PlistError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path.array, debugDescription: "The data is not a valid property list: \(error)",
                    underlyingError: error))
        }
    }

    // MARK: Unboxing

    /// The scalar at `node`; a container in a binary file is a type mismatch.
    private func scalar(_ node: DecodingNode, as type: Any.Type, path: @autoclosure () -> CodingPathNode) throws
        -> Plist
    {
        switch node {
        case .value(let value):
            return value
        case .object(let ref):
            let scalar: Plist?
            do {
                scalar = try objects!.scalar(ref)
            } catch {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: path().array, debugDescription: "The data is not a valid property list: \(error)",
                        underlyingError: error))
            }
            guard let scalar else { throw mismatch(type, node, path()) }
            return scalar
        }
    }

    func unbox<T: Decodable>(_ node: DecodingNode, as type: T.Type, path: @autoclosure () -> CodingPathNode) throws -> T
    {
        if T.self == Date.self { return try unboxDate(node, path: path()) as! T }
        if T.self == Data.self {
            guard case .data(let data) = try scalar(node, as: type, path: path()) else {
                throw mismatch(Data.self, node, path())
            }
            return data as! T
        }
        if T.self == URL.self, case .string(let string) = try? scalar(node, as: type, path: path()) {
            // Foundation writes a URL as `{relative, base}` (URL's own Codable); its absolute
            // string (what JSON coders write) is read too.
            guard let url = URL(string: string) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: path().array,
                        debugDescription: "Invalid URL string \(string.debugDescription)\(location(node))."))
            }
            return url as! T
        }
        return try T(from: child(node, path: path()))
    }

    func unboxString(_ node: DecodingNode, path: @autoclosure () -> CodingPathNode) throws -> String {
        guard case .string(let string) = try scalar(node, as: String.self, path: path()) else {
            throw mismatch(String.self, node, path())
        }
        return string
    }

    func unboxBool(_ node: DecodingNode, path: @autoclosure () -> CodingPathNode) throws -> Bool {
        switch try scalar(node, as: Bool.self, path: path()) {
        case .bool(let bool): return bool
        case .string(let text):
            switch text.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: break
            }
        default: break
        }
        throw mismatch(Bool.self, node, path())
    }

    @inline(__always) func unboxInteger<I: FixedWidthInteger>(
        _ node: DecodingNode, as type: I.Type, path: @autoclosure () -> CodingPathNode
    ) throws -> I {
        let value = try scalar(node, as: type, path: path())
        let fitted: I?
        switch value {
        case .integer(let integer):
            fitted = integer.int64.flatMap { I(exactly: $0) } ?? integer.uint64.flatMap { I(exactly: $0) }
        case .real(let real):
            fitted = I(exactly: real)
        case .string(let text):
            guard let parsed = I(text) else { throw mismatch(type, node, path()) }
            fitted = parsed
        default:
            throw mismatch(type, node, path())
        }
        guard let fitted else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path().array,
                    debugDescription: "Parsed property list number <\(value)> does not fit in \(type)\(location(node))."
                ))
        }
        return fitted
    }

    func unboxDouble(_ node: DecodingNode, path: @autoclosure () -> CodingPathNode) throws -> Double {
        switch try scalar(node, as: Double.self, path: path()) {
        case .real(let real): return real
        case .integer(let integer): return integer.int64.map(Double.init) ?? Double(integer.uint64!)
        case .string(let text):
            if let real = Double(text) { return real }
        default: break
        }
        throw mismatch(Double.self, node, path())
    }

    func unboxFloat(_ node: DecodingNode, path: @autoclosure () -> CodingPathNode) throws -> Float {
        let real = try unboxDouble(node, path: path())
        guard !real.isFinite || abs(real) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path().array,
                    debugDescription: "Parsed property list number <\(real)> does not fit in Float\(location(node))."))
        }
        return Float(real)
    }

    func unboxDate(_ node: DecodingNode, path: CodingPathNode) throws -> Date {
        let value = try scalar(node, as: Date.self, path: path)
        if case .date(let date) = value { return date }
        switch options.dates {
        case .deferredToDate:
            break
        case .iso8601:
            if case .string(let text) = value, let seconds = DateText.seconds(iso8601: text) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
        case .secondsSince1970:
            if let seconds = try? unboxDouble(node, path: path) { return Date(timeIntervalSince1970: seconds) }
        case .secondsSinceReferenceDate:
            if let seconds = try? unboxDouble(node, path: path) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
        case .custom(let decode):
            return try decode(child(node, path: path))
        }
        throw mismatch(Date.self, node, path)
    }

    func isNil(_ node: DecodingNode) -> Bool {
        switch node {
        case .value(.string(let text)): text == "$null"
        case .value: false
        case .object(let ref): objects!.isNull(ref)
        }
    }

    /// Where `node` is in the input, for error messages: `, at byte N` for an object of a
    /// binary file; empty for a tree value, which keeps no positions.
    func location(_ node: DecodingNode) -> String {
        guard case .object(let ref) = node, let objects else { return "" }
        return ", at byte \(objects.offset(of: ref))"
    }

    /// The error for a value of another type than the one asked for.
    func mismatch(_ type: Any.Type, _ node: DecodingNode, _ path: CodingPathNode) -> DecodingError {
        let found: String
        switch node {
        case .value(let value):
            found = Self.describe(value)
        case .object(let ref):
            switch objects!.kind(of: ref) {
            case .array: found = "an array"
            case .dictionary: found = "a dictionary"
            case .scalar: found = (try? objects!.scalar(ref))?.map(Self.describe) ?? "an unreadable value"
            }
        }
        return DecodingError.typeMismatch(
            type,
            .init(
                codingPath: path.array,
                debugDescription: "Expected to decode \(type) but found \(found) instead\(location(node))."))
    }

    private static func describe(_ value: Plist) -> String {
        if case .string(let text) = value, text == "$null" { return "a null value" }
        let article = value.typeName == "integer" || value.typeName == "array" ? "an" : "a"
        return "\(article) \(value.typeName) (\(String(String(describing: value).prefix(60))))"
    }
}

/// A dictionary as a keyed container sees it.
protocol DecodingEntries {
    var count: Int { get }
    func key(at index: Int) -> String
    func node(at index: Int) -> DecodingNode
    /// The index of `key`, found by hashing.
    func index(of key: String) -> Int?
}

struct TreeEntries: DecodingEntries {
    let entries: OrderedDictionary<String, Plist>
    init(_ entries: OrderedDictionary<String, Plist>) { self.entries = entries }
    var count: Int { entries.count }
    func key(at index: Int) -> String { entries.keys[index] }
    func node(at index: Int) -> DecodingNode { .value(entries.values[index]) }
    func index(of key: String) -> Int? { entries.index(forKey: key) }
}

struct ConvertedEntries: DecodingEntries {
    let entries: OrderedDictionary<String, DecodingNode>
    var count: Int { entries.count }
    func key(at index: Int) -> String { entries.keys[index] }
    func node(at index: Int) -> DecodingNode { entries.values[index] }
    func index(of key: String) -> Int? { entries.index(forKey: key) }
}

struct BinaryEntries: DecodingEntries {
    let objects: BinaryObjects
    let keys: [Int32]
    let values: [Int]
    var count: Int { keys.count }
    func key(at index: Int) -> String { objects.keyText(keys[index]) }
    func node(at index: Int) -> DecodingNode { .object(values[index]) }
    func index(of key: String) -> Int? {
        guard let number = objects.keyNumber(of: key) else { return nil }
        return keys.firstIndex(of: number)
    }
}

/// An array as an unkeyed container sees it.
protocol DecodingElements {
    var count: Int { get }
    func node(at index: Int) -> DecodingNode
}

struct TreeElements: DecodingElements {
    let elements: [Plist]
    var count: Int { elements.count }
    func node(at index: Int) -> DecodingNode { .value(elements[index]) }
}

struct BinaryElements: DecodingElements {
    let refs: [Int]
    var count: Int { refs.count }
    func node(at index: Int) -> DecodingNode { .object(refs[index]) }
}

/// A class, so that the box `KeyedDecodingContainer` keeps it in is copied with one retain
/// for every value decoded, and so that it can remember where it found the last key.
private final class KeyedContainer<Key: CodingKey, Entries: DecodingEntries>: KeyedDecodingContainerProtocol {
    let decoder: PlistValueDecoder
    let entries: Entries
    /// The entry after the last one found.
    private var nextEntry = 0

    init(decoder: PlistValueDecoder, entries: Entries) {
        self.decoder = decoder
        self.entries = entries
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { (0..<entries.count).compactMap { Key(stringValue: entries.key(at: $0)) } }

    func contains(_ key: Key) -> Bool { entries.index(of: key.stringValue) != nil }

    /// The value for `key`, if there is one. The entry after the last one found is tried before
    /// hashing: the compiler's `init(from:)` asks for keys in declaration order, and files
    /// written from the same type hold them in that order.
    private func lookup(_ key: Key) -> DecodingNode? { lookup(key.stringValue) }

    private func lookup(_ name: String) -> DecodingNode? {
        let next = nextEntry
        if next < entries.count, entries.key(at: next) == name {
            nextEntry = next + 1
            return entries.node(at: next)
        }
        guard let index = entries.index(of: name) else { return nil }
        nextEntry = index + 1
        return entries.node(at: index)
    }

    private func value(_ key: Key) throws -> DecodingNode {
        guard let value = lookup(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription:
                        "No value associated with key \(key.stringValue.debugDescription)\(decoder.location(decoder.node))."
                ))
        }
        return value
    }

    /// The value for `key` unless it is missing or null.
    private func present(_ key: Key) -> DecodingNode? {
        guard let value = lookup(key), !decoder.isNil(value) else { return nil }
        return value
    }

    private func path(_ key: Key) -> CodingPathNode { decoder.path.appending(key) }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNil(try value(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.unboxBool(value(key), path: path(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.unboxString(value(key), path: path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unboxDouble(value(key), path: path(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unboxFloat(value(key), path: path(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.unboxInteger(value(key), as: type, path: path(key))
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(value(key), as: type, path: path(key))
    }

    // The standard library's `decodeIfPresent` looks the key up three times; these look once.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxBool(value, path: path(key))
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxString(value, path: path(key))
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxDouble(value, path: path(key))
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxFloat(value, path: path(key))
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = present(key) else { return nil }
        return try decoder.unbox(value, as: type, path: path(key))
    }

    @inline(__always) private func integerIfPresent<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxInteger(value, as: type, path: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(value(key), path: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(value(key), path: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(
            lookup(PlistCodingKey.superKey.stringValue) ?? .value(.string("$null")),
            path: decoder.path.appending(PlistCodingKey.superKey))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(lookup(key) ?? .value(.string("$null")), path: path(key))
    }
}

private struct UnkeyedContainer<Elements: DecodingElements>: UnkeyedDecodingContainer {
    let decoder: PlistValueDecoder
    let elements: Elements
    private(set) var currentIndex = 0

    init(decoder: PlistValueDecoder, elements: Elements) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var path: CodingPathNode { .index(currentIndex, decoder.path) }

    private mutating func next(_ type: Any.Type) throws -> DecodingNode {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path.array, debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return elements.node(at: currentIndex)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self, .init(codingPath: path.array, debugDescription: "Unkeyed container is at end."))
        }
        if decoder.isNil(elements.node(at: currentIndex)) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let p = path
        return try decoder.unboxBool(next(type), path: p)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let p = path
        return try decoder.unboxString(next(type), path: p)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let p = path
        return try decoder.unboxDouble(next(type), path: p)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let p = path
        return try decoder.unboxFloat(next(type), path: p)
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let p = path
        return try decoder.unboxInteger(next(type), as: type, path: p)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let p = path
        return try decoder.unbox(next(type), as: type, path: p)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let p = path
        return try decoder.child(next(type), path: p).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let p = path
        return try decoder.child(next([Any].self), path: p).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let p = path
        return decoder.child(try next(Any.self), path: p)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: PlistValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var value: DecodingNode { decoder.node }
    private var path: CodingPathNode { decoder.path }

    func decodeNil() -> Bool { decoder.isNil(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.unboxBool(value, path: path) }
    func decode(_ type: String.Type) throws -> String { try decoder.unboxString(value, path: path) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.unboxDouble(value, path: path) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.unboxFloat(value, path: path) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.unboxInteger(value, as: type, path: path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.unboxInteger(value, as: type, path: path) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(value, as: type, path: path) }
}
