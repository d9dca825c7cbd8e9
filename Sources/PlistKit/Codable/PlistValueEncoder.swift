#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an encoder or container holds while values are encoded into it. Containers are
/// references, because a container can be written to after it was handed out; a value encoded
/// through `encode(_:forKey:)` is finished when its `encode(to:)` returns, so it is kept as a
/// `Plist` at once.
private enum Item {
    case value(Plist)
    case keyed(KeyedStorage)
    case unkeyed(UnkeyedStorage)
    case encoder(PlistValueEncoder)

    var plist: Plist {
        switch self {
        case .value(let value): value
        case .keyed(let storage): storage.plist
        case .unkeyed(let storage): storage.plist
        case .encoder(let encoder): encoder.item?.plist ?? .dictionary([:])
        }
    }
}

/// A keyed container's entries: finished values go straight into `entries`; containers and
/// encoders handed out are kept in `pending` and put in place when the tree is made.
private final class KeyedStorage {
    var entries = OrderedDictionary<String, Plist>()
    var pending: [String: Item] = [:]

    func set(_ value: Plist, for key: String) {
        entries[key] = value
        if !pending.isEmpty { pending[key] = nil }
    }

    func set(_ item: Item, for key: String) {
        entries[key] = .bool(false)  // keeps the key's place
        pending[key] = item
    }

    var plist: Plist {
        guard !pending.isEmpty else { return .dictionary(entries) }
        var result = entries
        for (key, item) in pending { result[key] = item.plist }
        return .dictionary(result)
    }
}

/// An unkeyed container's elements, finished values and handed-out containers as in `KeyedStorage`.
private final class UnkeyedStorage {
    var elements: [Plist] = []
    var pending: [Int: Item] = [:]

    func append(_ item: Item) {
        pending[elements.count] = item
        elements.append(.bool(false))  // keeps the element's place
    }

    var plist: Plist {
        guard !pending.isEmpty else { return .array(elements) }
        var result = elements
        for (index, item) in pending { result[index] = item.plist }
        return .array(result)
    }
}

/// The `Encoder` for one value.
final class PlistValueEncoder: Encoder {
    struct Options {
        var userInfo: [CodingUserInfoKey: any Sendable]
        var keys: PlistEncoder.KeyEncodingStrategy
        var dates: PlistEncoder.DateEncodingStrategy
    }

    let path: CodingPathNode
    let options: Options
    fileprivate var item: Item?

    init(path: CodingPathNode, options: Options) {
        self.path = path
        self.options = options
    }

    var codingPath: [any CodingKey] { path.array }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let storage: KeyedStorage
        if case .keyed(let existing) = item {
            storage = existing
        } else {
            storage = KeyedStorage()
            item = .keyed(storage)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let storage: UnkeyedStorage
        if case .unkeyed(let existing) = item {
            storage = existing
        } else {
            storage = UnkeyedStorage()
            item = .unkeyed(storage)
        }
        return UnkeyedContainer(encoder: self, storage: storage)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// `value` as a `Plist`, encoded at `path`.
    static func box<T: Encodable>(_ value: T, path: CodingPathNode, options: Options) throws -> Plist {
        if T.self == Date.self { return try boxDate(value as! Date, path: path, options: options) }
        if T.self == Data.self { return .data(value as! Data) }
        let encoder = PlistValueEncoder(path: path, options: options)
        try value.encode(to: encoder)
        return encoder.item?.plist ?? .dictionary([:])
    }

    static func boxDate(_ date: Date, path: CodingPathNode, options: Options) throws -> Plist {
        switch options.dates {
        case .native: return .date(date)
        case .iso8601:
            guard let text = DateText.iso8601(seconds: date.timeIntervalSinceReferenceDate) else {
                throw EncodingError.invalidValue(
                    date,
                    .init(
                        codingPath: path.array,
                        debugDescription: "The date is outside the years 1...9999 ISO 8601 text can hold."))
            }
            return .string(text)
        case .secondsSince1970: return .real(date.timeIntervalSince1970)
        case .secondsSinceReferenceDate: return .real(date.timeIntervalSinceReferenceDate)
        case .custom(let encode):
            let encoder = PlistValueEncoder(path: path, options: options)
            try encode(date, encoder)
            return encoder.item?.plist ?? .dictionary([:])
        }
    }

    /// The key written for `key`, as the key strategy makes it.
    func name(of key: some CodingKey) -> String {
        switch options.keys {
        case .useDefaultKeys: key.stringValue
        case .convertToSnakeCase: KeyCase.snakeCase(fromCamelCase: key.stringValue)
        case .custom(let convert): convert(codingPath + [key]).stringValue
        }
    }

    fileprivate func set(_ value: Plist) {
        item = .value(value)
    }
}

private func integer(_ value: some FixedWidthInteger) -> Plist {
    .integer(PlistInteger(exactly: value)!)
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: PlistValueEncoder
    let storage: KeyedStorage

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ value: Plist, _ key: Key) {
        storage.set(value, for: encoder.name(of: key))
    }

    mutating func encodeNil(forKey key: Key) throws { put(.string("$null"), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.real(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.real(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try PlistValueEncoder.box(value, path: encoder.path.appending(key), options: encoder.options), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = KeyedStorage()
        storage.set(.keyed(nested), for: encoder.name(of: key))
        let nestedEncoder = PlistValueEncoder(path: encoder.path.appending(key), options: encoder.options)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: nestedEncoder, storage: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = UnkeyedStorage()
        storage.set(.unkeyed(nested), for: encoder.name(of: key))
        let nestedEncoder = PlistValueEncoder(path: encoder.path.appending(key), options: encoder.options)
        return UnkeyedContainer(encoder: nestedEncoder, storage: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let superEncoder = PlistValueEncoder(
            path: encoder.path.appending(PlistCodingKey.superKey), options: encoder.options)
        storage.set(.encoder(superEncoder), for: "super")
        return superEncoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let superEncoder = PlistValueEncoder(path: encoder.path.appending(key), options: encoder.options)
        storage.set(.encoder(superEncoder), for: encoder.name(of: key))
        return superEncoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: PlistValueEncoder
    let storage: UnkeyedStorage

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { storage.elements.count }

    private func put(_ value: Plist) { storage.elements.append(value) }

    mutating func encodeNil() throws { put(.string("$null")) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.real(value)) }
    mutating func encode(_ value: Float) throws { put(.real(Double(value))) }
    mutating func encode(_ value: Int) throws { put(integer(value)) }
    mutating func encode(_ value: Int8) throws { put(integer(value)) }
    mutating func encode(_ value: Int16) throws { put(integer(value)) }
    mutating func encode(_ value: Int32) throws { put(integer(value)) }
    mutating func encode(_ value: Int64) throws { put(integer(value)) }
    mutating func encode(_ value: UInt) throws { put(integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(integer(value)) }
    mutating func encode(_ value: UInt16) throws { put(integer(value)) }
    mutating func encode(_ value: UInt32) throws { put(integer(value)) }
    mutating func encode(_ value: UInt64) throws { put(integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        put(try PlistValueEncoder.box(value, path: .index(count, encoder.path), options: encoder.options))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = KeyedStorage()
        let nestedEncoder = PlistValueEncoder(path: .index(count, encoder.path), options: encoder.options)
        storage.append(.keyed(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: nestedEncoder, storage: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = UnkeyedStorage()
        let nestedEncoder = PlistValueEncoder(path: .index(count, encoder.path), options: encoder.options)
        storage.append(.unkeyed(nested))
        return UnkeyedContainer(encoder: nestedEncoder, storage: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let superEncoder = PlistValueEncoder(path: .index(count, encoder.path), options: encoder.options)
        storage.append(.encoder(superEncoder))
        return superEncoder
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: PlistValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.set(.string("$null")) }
    mutating func encode(_ value: Bool) throws { encoder.set(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.set(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.set(.real(value)) }
    mutating func encode(_ value: Float) throws { encoder.set(.real(Double(value))) }
    mutating func encode(_ value: Int) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: Int8) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: Int16) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: Int32) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: Int64) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: UInt) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.set(integer(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.set(integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.set(try PlistValueEncoder.box(value, path: encoder.path, options: encoder.options))
    }
}
