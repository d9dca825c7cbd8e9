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

/// The `Decoder` for one value of the tree.
final class PlistValueDecoder: Decoder {
    struct Options {
        var userInfo: [CodingUserInfoKey: any Sendable]
        var keys: PlistDecoder.KeyDecodingStrategy
        var dates: PlistDecoder.DateDecodingStrategy
    }

    let value: Plist
    let path: CodingPathNode
    let options: Options

    init(value: Plist, path: CodingPathNode, options: Options) {
        self.value = value
        self.path = path
        self.options = options
    }

    var codingPath: [any CodingKey] { path.array }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let entries) = value else {
            throw mismatch([String: Any].self, value, path)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, entries: convertedKeys(entries)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self, value, path) }
        return UnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    /// The entries with their keys as the key strategy makes them.
    private func convertedKeys(_ entries: OrderedDictionary<String, Plist>) -> OrderedDictionary<String, Plist> {
        switch options.keys {
        case .useDefaultKeys:
            return entries
        case .convertFromSnakeCase:
            var converted = OrderedDictionary<String, Plist>(minimumCapacity: entries.count)
            for (key, value) in entries where converted[KeyCase.camelCase(fromSnakeCase: key)] == nil {
                converted[KeyCase.camelCase(fromSnakeCase: key)] = value
            }
            return converted
        case .custom(let convert):
            let parent = codingPath
            var converted = OrderedDictionary<String, Plist>(minimumCapacity: entries.count)
            for (key, value) in entries {
                let made = convert(parent + [PlistCodingKey(stringValue: key)]).stringValue
                if converted[made] == nil { converted[made] = value }
            }
            return converted
        }
    }

    // MARK: Unboxing

    func unbox<T: Decodable>(_ value: Plist, as type: T.Type, path: @autoclosure () -> CodingPathNode) throws -> T {
        if T.self == Date.self { return try unboxDate(value, path: path()) as! T }
        if T.self == Data.self {
            guard case .data(let data) = value else { throw mismatch(Data.self, value, path()) }
            return data as! T
        }
        if T.self == URL.self, case .string(let string) = value {
            // Foundation writes a URL as `{relative, base}` (URL's own Codable); its absolute
            // string (what JSON coders write) is read too.
            guard let url = URL(string: string) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path().array, debugDescription: "Invalid URL string \(string.debugDescription)."))
            }
            return url as! T
        }
        return try T(from: PlistValueDecoder(value: value, path: path(), options: options))
    }

    func unboxString(_ value: Plist, path: @autoclosure () -> CodingPathNode) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, path()) }
        return string
    }

    func unboxBool(_ value: Plist, path: @autoclosure () -> CodingPathNode) throws -> Bool {
        switch value {
        case .bool(let bool): return bool
        case .string(let text):
            switch text.lowercased() {
            case "yes", "true", "1": return true
            case "no", "false", "0": return false
            default: break
            }
        default: break
        }
        throw mismatch(Bool.self, value, path())
    }

    func unboxInteger<I: FixedWidthInteger>(_ value: Plist, as type: I.Type, path: @autoclosure () -> CodingPathNode)
        throws -> I
    {
        let fitted: I?
        switch value {
        case .integer(let integer):
            fitted = integer.int64.flatMap { I(exactly: $0) } ?? integer.uint64.flatMap { I(exactly: $0) }
        case .real(let real):
            fitted = I(exactly: real)
        case .string(let text):
            guard let parsed = I(text) else { throw mismatch(type, value, path()) }
            fitted = parsed
        default:
            throw mismatch(type, value, path())
        }
        guard let fitted else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path().array,
                    debugDescription: "Parsed property list number <\(value)> does not fit in \(type)."))
        }
        return fitted
    }

    func unboxDouble(_ value: Plist, path: @autoclosure () -> CodingPathNode) throws -> Double {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return integer.int64.map(Double.init) ?? Double(integer.uint64!)
        case .string(let text):
            if let real = Double(text) { return real }
        default: break
        }
        throw mismatch(Double.self, value, path())
    }

    func unboxFloat(_ value: Plist, path: @autoclosure () -> CodingPathNode) throws -> Float {
        let real = try unboxDouble(value, path: path())
        guard !real.isFinite || abs(real) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path().array,
                    debugDescription: "Parsed property list number <\(real)> does not fit in Float."))
        }
        return Float(real)
    }

    func unboxDate(_ value: Plist, path: CodingPathNode) throws -> Date {
        if case .date(let date) = value { return date }
        switch options.dates {
        case .deferredToDate:
            break
        case .iso8601:
            if case .string(let text) = value, let seconds = DateText.seconds(iso8601: text) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
        case .secondsSince1970:
            if let seconds = try? unboxDouble(value, path: path) { return Date(timeIntervalSince1970: seconds) }
        case .secondsSinceReferenceDate:
            if let seconds = try? unboxDouble(value, path: path) {
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
        case .custom(let decode):
            return try decode(PlistValueDecoder(value: value, path: path, options: options))
        }
        throw mismatch(Date.self, value, path)
    }

    func isNil(_ value: Plist) -> Bool {
        if case .string(let text) = value { text == "$null" } else { false }
    }
}

/// The error for a value of another type than the one asked for.
func mismatch(_ type: Any.Type, _ value: Plist, _ path: CodingPathNode) -> DecodingError {
    let found: String
    switch value {
    case .string(let text) where text == "$null": found = "a null value"
    default:
        found =
            "\(value.typeName == "integer" || value.typeName == "array" ? "an" : "a") \(value.typeName) (\(String(String(describing: value).prefix(60))))"
    }
    return DecodingError.typeMismatch(
        type, .init(codingPath: path.array, debugDescription: "Expected to decode \(type) but found \(found) instead."))
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: PlistValueDecoder
    let entries: OrderedDictionary<String, Plist>

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

    private func value(_ key: Key) throws -> Plist {
        guard let value = entries[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key.stringValue.debugDescription)."))
        }
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

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = entries[key.stringValue], !decoder.isNil(value) else { return nil }
        return try decoder.unbox(value, as: type, path: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try PlistValueDecoder(value: value(key), path: path(key), options: decoder.options).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try PlistValueDecoder(value: value(key), path: path(key), options: decoder.options).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        PlistValueDecoder(
            value: entries["super"] ?? .string("$null"), path: decoder.path.appending(PlistCodingKey.superKey),
            options: decoder.options)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        PlistValueDecoder(
            value: entries[key.stringValue] ?? .string("$null"), path: path(key), options: decoder.options)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: PlistValueDecoder
    let elements: [Plist]
    private(set) var currentIndex = 0

    init(decoder: PlistValueDecoder, elements: [Plist]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var path: CodingPathNode { .index(currentIndex, decoder.path) }

    private mutating func next(_ type: Any.Type) throws -> Plist {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path.array, debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self, .init(codingPath: path.array, debugDescription: "Unkeyed container is at end."))
        }
        if decoder.isNil(elements[currentIndex]) {
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
        return try PlistValueDecoder(value: next(type), path: p, options: decoder.options).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let p = path
        return try PlistValueDecoder(value: next([Any].self), path: p, options: decoder.options).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let p = path
        return PlistValueDecoder(value: try next(Any.self), path: p, options: decoder.options)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: PlistValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var value: Plist { decoder.value }
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
