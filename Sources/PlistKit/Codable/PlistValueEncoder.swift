import PlistCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What every encoder and container of one `encode` call shares: the `FlatPlist` being built,
/// changed only through the methods here.
final class EncodingState {
    /// Unchecked: each method changes `flat` through one access that runs no user code (keys
    /// and values are made before the access begins), so accesses never overlap, and the
    /// runtime check was a measurable part of encoding.
    @exclusivity(unchecked) private var flat = FlatPlist()
    let options: PlistValueEncoder.Options

    init(options: PlistValueEncoder.Options) { self.options = options }

    /// The property list built.
    var result: FlatPlist { unsafe flat }

    /// `FlatPlist.add`.
    func add(_ scalar: FlatPlist.Scalar, to parent: Int32, key: FlatPlist.Key) throws(PlistError) {
        try unsafe flat.add(scalar, to: parent, key: key)
    }

    /// `FlatPlist.addContainer`.
    func addContainer(_ kind: FlatPlist.Kind, to parent: Int32, key: FlatPlist.Key) -> Int32 {
        unsafe flat.addContainer(kind, to: parent, key: key)
    }

    /// Where the numbers of `Key`'s keys start in `keyNumbers`, or `nil` when its keys are
    /// looked up by name.
    ///
    /// A coding-key type whose values are one byte or none (an enum without payloads, as
    /// synthesized `CodingKeys` are) gets places for the values of that byte: its keys are
    /// then numbered with one load each, without making their strings and looking those up.
    /// Such a type is taken to spell each of its values the same way throughout one `encode`.
    func keyNumberSlots<Key: CodingKey>(for type: Key.Type) -> Int? {
        guard MemoryLayout<Key>.size <= 1 else { return nil }
        if case .custom = options.keys { return nil }
        let id = ObjectIdentifier(type)
        if let last = lastKeyNumberSlots, last.type == id { return last.start }
        let start: Int
        if let known = keyNumberSlotTypes.firstIndex(of: id) {
            start = Self.keyNumberSlotsPerType * known
        } else {
            guard keyNumberSlotTypes.count < Self.maxKeyNumberSlotTypes else { return nil }
            start = Self.keyNumberSlotsPerType * keyNumberSlotTypes.count
            keyNumberSlotTypes.append(id)
            unsafe keyNumbers.append(contentsOf: repeatElement(-1, count: Self.keyNumberSlotsPerType))
        }
        lastKeyNumberSlots = (id, start)
        return start
    }

    /// The number of the key in place `slot` of `keyNumbers`, named `name()` the first time.
    func keyNumber(slot: Int, name: () -> String) -> Int32 {
        let known = unsafe keyNumbers[slot]
        if known >= 0 { return known }
        let name = name()
        let number = unsafe flat.keyNumber(of: name)
        unsafe keyNumbers[slot] = number
        return number
    }

    /// Key numbers by coding-key type and value (`keyNumberSlots(for:)`); -1 until numbered.
    /// Unchecked as `flat`: `name` runs before the access that stores the number.
    @exclusivity(unchecked) private var keyNumbers: [Int32] = []
    /// The key types with places in `keyNumbers`, in order; a small model has a few, and a
    /// search through them costs less than hashing (small encodes were slower with a
    /// dictionary here). Key types past `maxKeyNumberSlotTypes` go by name.
    private var keyNumberSlotTypes: [ObjectIdentifier] = []
    private var lastKeyNumberSlots: (type: ObjectIdentifier, start: Int)?
    private static let maxKeyNumberSlotTypes = 64
    /// Places per key type: the values of its byte below this (an enum's first 64 cases) are
    /// numbered once, the others go by name.
    static let keyNumberSlotsPerType = 64

    /// `FlatPlist.set`.
    func set(_ node: Int32, to scalar: FlatPlist.Scalar) throws(PlistError) {
        try unsafe flat.set(node, to: scalar)
    }

    /// `FlatPlist.setContainer`.
    func setContainer(_ node: Int32, to kind: FlatPlist.Kind) {
        unsafe flat.setContainer(node, to: kind)
    }

    /// `FlatPlist.lastEntry`.
    func lastEntry(of dictionary: Int32, key: FlatPlist.Key) -> Int32? {
        unsafe flat.lastEntry(of: dictionary, key: key)
    }

    /// The kind of `node`.
    func kind(of node: Int32) -> FlatPlist.Kind { unsafe flat.nodes[Int(node)].kind }

    /// The first request for a container or value that Foundation's encoder refuses with a
    /// precondition failure (which stops the process): `encode` throws it at the end instead.
    private(set) var misuse: EncodingError?

    /// Notes a refused request at `codingPath`, and returns a node outside the property list
    /// for what the caller writes next.
    func refuse(_ request: String, at codingPath: [any CodingKey], kind: FlatPlist.Kind) -> Int32 {
        if misuse == nil {
            let path = codingPath.map(\.stringValue).joined(separator: ".")
            misuse = EncodingError.invalidValue(
                request,
                .init(
                    codingPath: codingPath,
                    debugDescription: "\(request) at \(path.isEmpty ? "the top" : "\"\(path)\""), where a value of "
                        + "another kind was already encoded. (Foundation's encoder stops the process here.)"))
        }
        return addContainer(kind, to: -1, key: .none)
    }

    /// The number of children of container `node`, read from the node: a method on `flat`
    /// that read it copied the whole `FlatPlist` (retaining its arrays) for every element.
    func count(of node: Int32) -> Int { Int(unsafe flat.nodes[Int(node)].count) }
}

/// The `Encoder` for one value: it writes into its node of the `FlatPlist`, which its parent
/// made before handing it out (an empty dictionary until the value says what it is, which is
/// also what a value that encodes nothing becomes, as in Foundation).
///
/// As in Foundation, a value may ask again for the container it has (and gets the same one),
/// but not for another kind, nor encode a single value twice: Foundation's encoder stops the
/// process then; this one notes it and `encode` throws (`EncodingState.refuse`).
final class PlistValueEncoder: Encoder {
    struct Options {
        var userInfo: [CodingUserInfoKey: any Sendable]
        var keys: PlistEncoder.KeyEncodingStrategy
        var dates: PlistEncoder.DateEncodingStrategy
    }

    /// What this value has asked for so far.
    enum Request {
        case nothing, keyed, unkeyed, single
    }

    let state: EncodingState
    let node: Int32
    /// The encoder of the value this one is in, and this value's key or index there; `nil` at the top.
    let parent: PlistValueEncoder?
    let key: PlistCodingKey?
    var request = Request.nothing

    init(state: EncodingState, node: Int32, parent: PlistValueEncoder?, key: PlistCodingKey?) {
        self.state = state
        self.node = node
        self.parent = parent
        self.key = key
    }

    /// Runs `encode` on the encoder of the top value (node 0) of a new `FlatPlist`.
    /// - Throws: what `encode` throws, or a request Foundation's encoder refuses.
    static func encode(options: Options, _ encode: (PlistValueEncoder) throws -> Void) throws -> FlatPlist {
        let state = EncodingState(options: options)
        let top = state.addContainer(.dictionary, to: -1, key: .none)
        try encode(PlistValueEncoder(state: state, node: top, parent: nil, key: nil))
        if let misuse = state.misuse { throw misuse }
        return state.result
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: PlistValueEncoder? = self
        while let current = encoder, let key = current.key {
            path.append(key)
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { state.options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(encoder: container(.dictionary, .keyed, "A keyed container")))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: container(.array, .unkeyed, "An unkeyed container"))
    }

    /// The encoder whose node is this value's container of `kind`: this one, unless the value
    /// already encoded something else (then an encoder outside the property list).
    private func container(_ kind: FlatPlist.Kind, _ asked: Request, _ name: String) -> PlistValueEncoder {
        switch request {
        case .nothing:
            state.setContainer(node, to: kind)
            request = asked
        case asked:
            break
        case .single where state.kind(of: node) == kind:
            // A single value that encoded a container of this kind: Foundation hands it out.
            break
        default:
            let detached = state.refuse(name, at: codingPath, kind: kind)
            return PlistValueEncoder(state: state, node: detached, parent: parent, key: key)
        }
        return self
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// Whether a single value may be encoded (nothing was yet); notes the refusal otherwise.
    func mayEncodeSingleValue() -> Bool {
        guard request == .nothing else {
            _ = state.refuse("A second value", at: codingPath, kind: .dictionary)
            return false
        }
        return true
    }

    /// The encoder for the value in `node`, a child of this value at `key`.
    func child(_ node: Int32, key: PlistCodingKey) -> PlistValueEncoder {
        PlistValueEncoder(state: state, node: node, parent: self, key: key)
    }

    /// Encodes `value` into this encoder's node. Dates and data are property-list values;
    /// everything else encodes itself.
    func encode<T: Encodable>(_ value: T) throws {
        if T.self == Date.self {
            try encodeDate(value as! Date)
        } else if T.self == Data.self {
            try set(.data(value as! Data))
        } else if T.self == Plist.self {
            try setTree(value as! Plist, node: node)
        } else {
            try value.encode(to: self)
        }
    }

    /// Makes `node` the subtree `tree` as it is: no strategy applies to its keys and dates.
    /// A UID is the dictionary `{"CF$UID": n}`, as `Plist`'s `Encodable` writes it.
    private func setTree(_ tree: Plist, node: Int32) throws {
        do throws(PlistError) {
            switch tree {
            case .array(let elements):
                state.setContainer(node, to: .array)
                for element in elements { try addTree(element, to: node, key: .none) }
            case .dictionary(let entries):
                state.setContainer(node, to: .dictionary)
                for (key, value) in entries { try addTree(value, to: node, key: .name(key)) }
            case .uid(let reference):
                state.setContainer(node, to: .dictionary)
                try state.add(.unsigned(reference), to: node, key: .name("CF$UID"))
            default:
                try state.set(node, to: Self.scalar(tree))
            }
        } catch {
            throw tooLarge(error, at: codingPath)
        }
    }

    private func addTree(_ tree: Plist, to parent: Int32, key: FlatPlist.Key) throws(PlistError) {
        switch tree {
        case .array(let elements):
            let node = state.addContainer(.array, to: parent, key: key)
            for element in elements { try addTree(element, to: node, key: .none) }
        case .dictionary(let entries):
            let node = state.addContainer(.dictionary, to: parent, key: key)
            for (key, value) in entries { try addTree(value, to: node, key: .name(key)) }
        case .uid(let reference):
            let node = state.addContainer(.dictionary, to: parent, key: key)
            try state.add(.unsigned(reference), to: node, key: .name("CF$UID"))
        default:
            try state.add(Self.scalar(tree), to: parent, key: key)
        }
    }

    /// The flat scalar of a scalar `Plist`.
    private static func scalar(_ value: Plist) -> FlatPlist.Scalar {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): number.int64.map { .signed($0) } ?? .unsigned(number.bitPattern)
        case .real(let number): .real(number)
        case .bool(let flag): .bool(flag)
        case .date(let date): .date(date)
        case .data(let data): .data(data)
        case .array, .dictionary, .uid: preconditionFailure("not a scalar")
        }
    }

    /// Makes this encoder's node the scalar `scalar`.
    func set(_ scalar: FlatPlist.Scalar) throws {
        do {
            try state.set(node, to: scalar)
        } catch {
            throw tooLarge(error, at: codingPath)
        }
    }

    private func encodeDate(_ date: Date) throws {
        switch state.options.dates {
        case .deferredToDate: try set(.date(date))
        case .iso8601:
            guard let text = DateText.iso8601(seconds: date.timeIntervalSinceReferenceDate) else {
                throw EncodingError.invalidValue(
                    date,
                    .init(
                        codingPath: codingPath,
                        debugDescription: "The date is outside the years 1...9999 ISO 8601 text can hold."))
            }
            try set(.string(text))
        case .secondsSince1970: try set(.real(date.timeIntervalSince1970))
        case .secondsSinceReferenceDate: try set(.real(date.timeIntervalSinceReferenceDate))
        case .custom(let encode): try encode(date, self)
        }
    }

    /// The key written for `key`, as the key strategy makes it.
    func name(of key: some CodingKey) -> String {
        switch state.options.keys {
        case .useDefaultKeys: key.stringValue
        case .convertToSnakeCase: KeyCase.snakeCase(fromCamelCase: key.stringValue)
        case .custom(let convert): convert(codingPath + [key]).stringValue
        }
    }
}

/// The error for a string or data too long for the `FlatPlist`.
private func tooLarge(_ error: PlistError, at codingPath: [any CodingKey]) -> EncodingError {
    EncodingError.invalidValue(
        error,
        .init(
            codingPath: codingPath,
            debugDescription: "A string or data of more than \(FlatPlist.maxLength) bytes cannot be encoded.",
            underlyingError: error))
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: PlistValueEncoder
    /// `EncodingState.keyNumberSlots(for: Key.self)`, -1 for none.
    let keyNumberSlots: Int

    init(encoder: PlistValueEncoder) {
        self.encoder = encoder
        keyNumberSlots = encoder.state.keyNumberSlots(for: Key.self) ?? -1
    }

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func flatKey(_ key: Key) -> FlatPlist.Key {
        if keyNumberSlots >= 0 {
            // SAFETY: `keyNumberSlots` is set only for a type of at most one byte.
            let byte = MemoryLayout<Key>.size == 0 ? 0 : Int(unsafe unsafeBitCast(key, to: UInt8.self))
            if byte < EncodingState.keyNumberSlotsPerType {
                return .number(encoder.state.keyNumber(slot: keyNumberSlots + byte) { encoder.name(of: key) })
            }
        }
        return .name(encoder.name(of: key))
    }

    private func put(_ scalar: FlatPlist.Scalar, _ key: Key) throws {
        do {
            try encoder.state.add(scalar, to: encoder.node, key: flatKey(key))
        } catch {
            throw tooLarge(error, at: codingPath + [key])
        }
    }

    /// A new child node under `key`: `kind` for a container, an empty dictionary for a value
    /// that encodes itself into it.
    private func add(_ kind: FlatPlist.Kind, _ key: Key) -> PlistValueEncoder {
        add(kind, flatKey(key), key)
    }

    private func add(_ kind: FlatPlist.Kind, _ flatKey: FlatPlist.Key, _ key: some CodingKey) -> PlistValueEncoder {
        let node = encoder.state.addContainer(kind, to: encoder.node, key: flatKey)
        return encoder.child(node, key: PlistCodingKey(key))
    }

    mutating func encodeNil(forKey key: Key) throws { try put(.string("$null"), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(.real(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(.real(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(.signed(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(.signed(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(.signed(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(.signed(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(.unsigned(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if T.self == Date.self, case .deferredToDate = encoder.state.options.dates {
            try put(.date(value as! Date), key)
        } else if T.self == Data.self {
            try put(.data(value as! Data), key)
        } else {
            try add(.dictionary, key).encode(value)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: nested(.dictionary, key, "A keyed container")))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: nested(.array, key, "An unkeyed container"))
    }

    /// The encoder of a container of `kind` under `key`. Asked for again (or after a value of
    /// that kind was encoded there), it is the same container, as in Foundation: the entries
    /// written through both are kept. A value of another kind there is a refused request.
    private func nested(_ kind: FlatPlist.Kind, _ key: Key, _ name: String) -> PlistValueEncoder {
        let flatKey = flatKey(key)
        guard let existing = encoder.state.lastEntry(of: encoder.node, key: flatKey) else {
            return add(kind, flatKey, key)
        }
        guard encoder.state.kind(of: existing) == kind else {
            let detached = encoder.state.refuse(name, at: codingPath + [key], kind: kind)
            return encoder.child(detached, key: PlistCodingKey(key))
        }
        return encoder.child(existing, key: PlistCodingKey(key))
    }

    mutating func superEncoder() -> any Encoder {
        add(.dictionary, .name(encoder.name(of: PlistCodingKey.superKey)), PlistCodingKey.superKey)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { add(.dictionary, key) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: PlistValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.state.count(of: encoder.node) }

    private func put(_ scalar: FlatPlist.Scalar) throws {
        do {
            try encoder.state.add(scalar, to: encoder.node, key: .none)
        } catch {
            throw tooLarge(error, at: codingPath + [PlistCodingKey(index: count)])
        }
    }

    /// A new element node: `kind` for a container, an empty dictionary for a value that
    /// encodes itself into it.
    private func add(_ kind: FlatPlist.Kind) -> PlistValueEncoder {
        let index = count
        let node = encoder.state.addContainer(kind, to: encoder.node, key: .none)
        return encoder.child(node, key: PlistCodingKey(index: index))
    }

    mutating func encodeNil() throws { try put(.string("$null")) }
    mutating func encode(_ value: Bool) throws { try put(.bool(value)) }
    mutating func encode(_ value: String) throws { try put(.string(value)) }
    mutating func encode(_ value: Double) throws { try put(.real(value)) }
    mutating func encode(_ value: Float) throws { try put(.real(Double(value))) }
    mutating func encode(_ value: Int) throws { try put(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try put(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try put(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try put(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try put(.signed(value)) }
    mutating func encode(_ value: UInt) throws { try put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try put(.signed(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { try put(.signed(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { try put(.signed(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { try put(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if T.self == Date.self, case .deferredToDate = encoder.state.options.dates {
            try put(.date(value as! Date))
        } else if T.self == Data.self {
            try put(.data(value as! Data))
        } else {
            try add(.dictionary).encode(value)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: add(.dictionary)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: add(.array))
    }

    mutating func superEncoder() -> any Encoder { add(.dictionary) }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: PlistValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    /// Sets the value, unless one was encoded already (a refused request).
    private func set(_ scalar: FlatPlist.Scalar) throws {
        guard encoder.mayEncodeSingleValue() else { return }
        try encoder.set(scalar)
        encoder.request = .single
    }

    mutating func encodeNil() throws { try set(.string("$null")) }
    mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
    mutating func encode(_ value: String) throws { try set(.string(value)) }
    mutating func encode(_ value: Double) throws { try set(.real(value)) }
    mutating func encode(_ value: Float) throws { try set(.real(Double(value))) }
    mutating func encode(_ value: Int) throws { try set(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try set(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try set(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try set(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try set(.signed(value)) }
    mutating func encode(_ value: UInt) throws { try set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try set(.signed(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { try set(.signed(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { try set(.signed(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { try set(.unsigned(value)) }

    /// The value encodes itself into this value's node (asking for its container then, as a
    /// first request); after it, this value is encoded.
    mutating func encode<T: Encodable>(_ value: T) throws {
        guard encoder.mayEncodeSingleValue() else { return }
        try encoder.encode(value)
        encoder.request = .single
    }
}
