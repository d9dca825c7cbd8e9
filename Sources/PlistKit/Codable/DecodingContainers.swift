#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A class, so that the box `KeyedDecodingContainer` keeps it in is copied with one retain
/// for every value decoded, and so that it can remember where it found the last key.
final class KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: PlistValueDecoder
    let entries: DecodingEntries
    /// The entry after the last one found.
    private var nextEntry = 0

    init(decoder: PlistValueDecoder, entries: DecodingEntries) {
        self.decoder = decoder
        self.entries = entries
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] {
        (0..<decoder.count(of: entries)).compactMap { Key(stringValue: decoder.key($0, of: entries)) }
    }

    func contains(_ key: Key) -> Bool { decoder.lookup(key.stringValue, in: entries, hint: 0) != nil }

    /// The value for `key`, if there is one; the entry after the last one found is tried first.
    private func lookup(_ key: Key) -> Int? { lookup(key.stringValue) }

    private func lookup(_ name: String) -> Int? {
        guard let (node, next) = decoder.lookup(name, in: entries, hint: nextEntry) else { return nil }
        nextEntry = next
        return node
    }

    private func value(_ key: Key) throws -> Int {
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
    private func present(_ key: Key) -> Int? {
        guard let value = lookup(key), !decoder.isNil(value) else { return nil }
        return value
    }

    private func step(_ key: Key) -> PathStep { .key(PlistCodingKey(key)) }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.isNil(try value(key)) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.unboxBool(value(key), at: step(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.unboxString(value(key), at: step(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.unboxDouble(value(key), at: step(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.unboxFloat(value(key), at: step(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.unboxInteger(value(key), as: type, at: step(key))
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(value(key), as: type, at: step(key))
    }

    // The standard library's `decodeIfPresent` looks the key up three times; these look once.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxBool(value, at: step(key))
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxString(value, at: step(key))
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxDouble(value, at: step(key))
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxFloat(value, at: step(key))
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
        return try decoder.unbox(value, as: type, at: step(key))
    }

    @inline(__always) private func integerIfPresent<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I? {
        guard let value = present(key) else { return nil }
        return try decoder.unboxInteger(value, as: type, at: step(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(value(key), step(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(value(key), step(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let step = PathStep.key(.superKey)
        guard let value = lookup(PlistCodingKey.superKey.stringValue) else { return decoder.absent(step) }
        return decoder.child(value, step)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        guard let value = lookup(key) else { return decoder.absent(step(key)) }
        return decoder.child(value, step(key))
    }
}

/// `currentIndex` moves past an element only when it decoded, as in Foundation: after a failed
/// `try? decode(Int.self)`, the same element can be decoded as another type.
struct UnkeyedDecoding: UnkeyedDecodingContainer {
    let decoder: PlistValueDecoder
    let elements: IndexedElements
    private(set) var currentIndex = 0

    init(decoder: PlistValueDecoder, elements: IndexedElements) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var step: PathStep { .index(currentIndex) }

    /// The current element.
    /// - Throws: `valueNotFound` at the end, with `message`.
    private func current(_ type: Any.Type, _ message: String = "Unkeyed container is at end.") throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: decoder.path(step).array, debugDescription: message))
        }
        return decoder.element(currentIndex, of: elements)
    }

    /// `value`, after moving past the element it was decoded from.
    private mutating func advancing<T>(_ value: T) -> T {
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.isNil(try current(Any?.self)) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        advancing(try decoder.unboxBool(current(type), at: step))
    }
    mutating func decode(_ type: String.Type) throws -> String {
        advancing(try decoder.unboxString(current(type), at: step))
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        advancing(try decoder.unboxDouble(current(type), at: step))
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        advancing(try decoder.unboxFloat(current(type), at: step))
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
        advancing(try decoder.unboxInteger(current(type), as: type, at: step))
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        advancing(try decoder.unbox(current(type), as: type, at: step))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let element = try current(KeyedDecodingContainer<NestedKey>.self)
        return advancing(try decoder.child(element, step).container(keyedBy: type))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = try current(
            (any UnkeyedDecodingContainer).self, "Cannot get nested unkeyed container -- unkeyed container is at end.")
        return advancing(try decoder.child(element, step).unkeyedContainer())
    }

    mutating func superDecoder() throws -> any Decoder {
        let element = try current((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        return advancing(decoder.child(element, step))
    }
}

struct SingleValueDecoding: SingleValueDecodingContainer {
    let decoder: PlistValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var value: Int { decoder.node }

    func decodeNil() -> Bool { decoder.isNil(value) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.unboxBool(value, at: .same) }
    func decode(_ type: String.Type) throws -> String { try decoder.unboxString(value, at: .same) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.unboxDouble(value, at: .same) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.unboxFloat(value, at: .same) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.unboxInteger(value, as: type, at: .same) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(value, as: type, at: .same) }
}
