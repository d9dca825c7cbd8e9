import OrderedCollections
import PlistCore

// The Codable bridge: keyed containers are NSDictionary objects with string keys, unkeyed
// containers NSArray objects, and single values the objects of their types. Values that are
// `KeyedArchivable` (strings, numbers, dates, data, UUIDs, URLs, PlistArchivable instances...)
// are archived as such, so instances stay shared inside Codable values too.

/// A coding key made from a string or an index.
struct ArchiveCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) { (stringValue, intValue) = (string, nil) }
    init?(stringValue: String) { self.init(stringValue) }
    init(intValue: Int) { (stringValue, self.intValue) = ("Index \(intValue)", intValue) }
}

enum CodableArchiving {
    /// Stores `value` and returns its index in `$objects`.
    static func archive(_ value: some Encodable, in writer: ArchiveWriter, codingPath: [any CodingKey]) throws -> UInt64
    {
        try writer.nested {
            if let archivable = value as? any KeyedArchivable {
                return try archivable.archiveObject(in: KeyedArchiveEncoder(writer: writer))
            }
            if let integer = value as? any FixedWidthInteger, let plist = PlistInteger(exactly: integer) {
                return writer.append(.integer(plist))
            }
            if let float = value as? Float { return writer.append(.real(Double(float))) }
            let encoder = ArchiveEncoding(writer: writer, codingPath: codingPath)
            try value.encode(to: encoder)
            return try encoder.box.archive(in: writer)
        }
    }

    /// The value of type `T` at `uid`.
    /// - Throws: `DecodingError` (with the `KeyedArchiveError` as its underlying error).
    static func unarchive<T: Decodable>(
        _ type: T.Type, at uid: UInt64, reader: ArchiveReader, codingPath: [any CodingKey]
    )
        throws -> T
    {
        do {
            if let archivable = type as? any KeyedArchivable.Type {
                let coder = KeyedArchiveDecoder(reader: reader, fields: [:], object: nil)
                return try cast(try archivable.unarchiveObject(uid, in: coder), uid)
            }
            if let integer = type as? any FixedWidthInteger.Type {
                let value = try reader.object(uid)
                guard
                    let result = value.int64.flatMap(integer.init(exactly:))
                        ?? value.uint64.flatMap(integer.init(exactly:))
                else { throw KeyedArchiveError(.typeMismatch(expected: "\(type) (NSNumber)"), object: uid) }
                return try cast(result, uid)
            }
            if type == Float.self { return try cast(Float(try reader.number(uid) as Double), uid) }
            return try reader.value(uid, as: type) {
                try T(from: ArchiveDecoding(reader: reader, uid: uid, codingPath: codingPath))
            }
        } catch let error as KeyedArchiveError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
        }
    }
}

/// `value` as a `T` (what a `KeyedArchivable` or integer type decoded as `T` returns).
private func cast<T>(_ value: Any, _ uid: UInt64) throws(KeyedArchiveError) -> T {
    guard let typed = value as? T else { throw KeyedArchiveError(.typeMismatch(expected: "\(T.self)"), object: uid) }
    return typed
}

/// What a Codable value encoded: a keyed or unkeyed container, or one object.
final class EncodedBox {
    enum Content {
        case empty
        case keyed(OrderedDictionary<ExactKey, EncodedBox>)
        case unkeyed([EncodedBox])
        case object(UInt64)
    }
    var content: Content = .empty

    init(_ content: Content = .empty) { self.content = content }

    func archive(in writer: ArchiveWriter) throws -> UInt64 {
        switch content {
        case .object(let uid):
            return uid
        case .empty:
            return try Self.dictionary([:], in: writer)
        case .keyed(let entries):
            return try Self.dictionary(entries, in: writer)
        case .unkeyed(let elements):
            return try writer.valueObject(classChain: ["NSArray", "NSObject"]) { coder in
                coder.fields["NS.objects"] = .array(try elements.map { .uid(try $0.archive(in: writer)) })
            }
        }
    }
}

extension EncodedBox {
    /// Stores an `NSDictionary` of `entries` (a Codable value that encoded nothing is an empty one).
    fileprivate static func dictionary(_ entries: OrderedDictionary<ExactKey, EncodedBox>, in writer: ArchiveWriter)
        throws
        -> UInt64
    {
        try writer.valueObject(classChain: ["NSDictionary", "NSObject"]) { coder in
            coder.fields["NS.keys"] = .array(entries.keys.map { .uid(writer.string($0.string)) })
            coder.fields["NS.objects"] = .array(try entries.values.map { .uid(try $0.archive(in: writer)) })
        }
    }
}

struct ArchiveEncoding: Encoder {
    let writer: ArchiveWriter
    let codingPath: [any CodingKey]
    let box = EncodedBox()
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = box.content {} else { box.content = .keyed([:]) }
        return KeyedEncodingContainer(KeyedContainer(encoder: self, box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = box.content {} else { box.content = .unkeyed([]) }
        return UnkeyedContainer(encoder: self, box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    func child(_ key: any CodingKey) -> ArchiveEncoding {
        ArchiveEncoding(writer: writer, codingPath: codingPath + [key])
    }

    func encode(_ value: some Encodable, at key: any CodingKey) throws -> EncodedBox {
        EncodedBox(.object(try CodableArchiving.archive(value, in: writer, codingPath: codingPath + [key])))
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ArchiveEncoding
        let box: EncodedBox
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func set(_ child: EncodedBox, for key: any CodingKey) {
            guard case .keyed(var entries) = box.content else { return }
            box.content = .empty
            entries[ExactKey(key.stringValue)] = child
            box.content = .keyed(entries)
        }

        mutating func encodeNil(forKey key: Key) throws { set(EncodedBox(.object(0)), for: key) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            set(try encoder.encode(value, at: key), for: key)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = encoder.child(key)
            set(child.box, for: key)
            return child.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = encoder.child(key)
            set(child.box, for: key)
            return child.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { superEncoder(at: ArchiveCodingKey("super")) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(at: key) }
        private func superEncoder(at key: any CodingKey) -> any Encoder {
            let child = encoder.child(key)
            set(child.box, for: key)
            return child
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: ArchiveEncoding
        let box: EncodedBox
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int {
            if case .unkeyed(let elements) = box.content { elements.count } else { 0 }
        }
        private var nextKey: ArchiveCodingKey { ArchiveCodingKey(intValue: count) }

        private func append(_ child: EncodedBox) {
            guard case .unkeyed(var elements) = box.content else { return }
            box.content = .empty
            elements.append(child)
            box.content = .unkeyed(elements)
        }

        mutating func encodeNil() throws { append(EncodedBox(.object(0))) }
        mutating func encode(_ value: some Encodable) throws { append(try encoder.encode(value, at: nextKey)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = encoder.child(nextKey)
            append(child.box)
            return child.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = encoder.child(nextKey)
            append(child.box)
            return child.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            let child = encoder.child(nextKey)
            append(child.box)
            return child
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: ArchiveEncoding
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.box.content = .object(0) }
        mutating func encode(_ value: some Encodable) throws {
            encoder.box.content = .object(
                try CodableArchiving.archive(value, in: encoder.writer, codingPath: codingPath))
        }
    }
}

struct ArchiveDecoding: Decoder {
    let reader: ArchiveReader
    let uid: UInt64
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private func corrupted(_ error: KeyedArchiveError) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        do {
            let (keys, values) = try reader.dictionaryReferences(uid)
            let coder = KeyedArchiveDecoder(reader: reader, fields: [:], object: uid)
            var entries: [String: UInt64] = [:]
            for (key, value) in zip(keys, values) { entries[try String.unarchiveObject(key, in: coder)] = value }
            return KeyedDecodingContainer(KeyedContainer(decoder: self, entries: entries))
        } catch let error as KeyedArchiveError {
            throw corrupted(error)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        do throws(KeyedArchiveError) {
            let fields = try reader.classFields(uid, allowed: ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet"])
            return UnkeyedContainer(
                decoder: self, elements: try reader.references("NS.objects", of: fields, object: uid))
        } catch {
            throw corrupted(error)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    func decode<T: Decodable>(_ type: T.Type, at uid: UInt64, key: any CodingKey) throws -> T {
        try CodableArchiving.unarchive(type, at: uid, reader: reader, codingPath: codingPath + [key])
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: ArchiveDecoding
        let entries: [String: UInt64]
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

        private func reference(_ key: Key) throws -> UInt64 {
            guard let uid = entries[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(
                        codingPath: codingPath,
                        debugDescription: "no value for the key \(key.stringValue.debugDescription)"))
            }
            return uid
        }

        func decodeNil(forKey key: Key) throws -> Bool { try reference(key) == 0 }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder.decode(type, at: try reference(key), key: key)
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try child(key).container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { try child(ArchiveCodingKey("super")) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }

        private func child(_ key: any CodingKey) throws -> ArchiveDecoding {
            guard let uid = entries[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(
                        codingPath: codingPath,
                        debugDescription: "no value for the key \(key.stringValue.debugDescription)"))
            }
            return ArchiveDecoding(reader: decoder.reader, uid: uid, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: ArchiveDecoding
        let elements: [UInt64]
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next() throws -> (UInt64, ArchiveCodingKey) {
            let key = ArchiveCodingKey(intValue: currentIndex)
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Any.self, .init(codingPath: codingPath + [key], debugDescription: "the array has no more elements"))
            }
            currentIndex += 1
            return (elements[currentIndex - 1], key)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == 0 else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (uid, key) = try next()
            return try decoder.decode(type, at: uid, key: key)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try child().container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try child().unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try child() }

        private mutating func child() throws -> ArchiveDecoding {
            let (uid, key) = try next()
            return ArchiveDecoding(reader: decoder.reader, uid: uid, codingPath: codingPath + [key])
        }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: ArchiveDecoding
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.uid == 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try CodableArchiving.unarchive(type, at: decoder.uid, reader: decoder.reader, codingPath: codingPath)
        }
    }
}
