import PlistCore

/// Reads keyed archives (from `NSKeyedArchiver` or `KeyedArchiver`) into Swift values, decoding
/// only the classes each call allows (the `requiresSecureCoding` idea).
///
/// Foundation's classes map to Swift types (see `KeyedArchivable`); other classes decode only as
/// `PlistArchivable` types named at the call, found by `archiveClassName` or by a name given to
/// `register(_:forClassName:)`. An unknown class name falls back to the first known one in its
/// `$classes`, as with `NSKeyedUnarchiver`.
public final class KeyedUnarchiver {
    let reader: ArchiveReader
    private let top: KeyedArchiveDecoder

    /// An unarchiver for the archive `plist`, which it checks first.
    /// - Throws: `KeyedArchiveError`: `.notAnArchive`, `.wrongArchiver`, `.wrongVersion`, `.missingTop`.
    public init(plist: Plist, maxDepth: Int = 512) throws(KeyedArchiveError) {
        let archive = try ArchiveContents(plist)
        reader = ArchiveReader(objects: archive.objects, maxDepth: maxDepth)
        top = KeyedArchiveDecoder(reader: reader, fields: archive.top, object: nil)
    }

    /// An unarchiver for the archive in `bytes` (binary or XML).
    /// - Throws: `PlistError` when `bytes` is not a property list, else as `init(plist:)`.
    public convenience init(bytes: [UInt8], maxDepth: Int = 512) throws {
        try self.init(plist: try Plist(bytes: bytes), maxDepth: maxDepth)
    }

    /// Decodes the class name `className` (and classes whose `$classes` list it) as `type`, in
    /// addition to `type.archiveClassName`.
    public func register(_ type: any PlistArchivable.Type, forClassName className: String) {
        reader.registry[className] = type
    }

    /// The root object (`$top` key `key`) as a `T`.
    /// - Throws: `KeyedArchiveError` naming the object and key, or what a `decode(from:)` throws.
    public func decodeRoot<T: KeyedArchivable>(_ type: T.Type = T.self, forKey key: String = "root") throws -> T {
        try top.decode(type, forKey: key)
    }

    /// The root object as an instance of one of `types` (the only classes allowed at the root).
    /// - Throws: `KeyedArchiveError` (`.classNotAllowed` for other classes), or what a `decode(from:)` throws.
    public func decodeRoot(of types: [any PlistArchivable.Type], forKey key: String = "root") throws
        -> any PlistArchivable
    {
        try top.decodeObject(of: types, forKey: key)
    }

    /// The root object as the `Codable` type `T` (see `KeyedArchiver.archive(codable:)`).
    /// - Throws: `DecodingError` with the coding path.
    public func decodeRootCodable<T: Decodable>(_ type: T.Type = T.self, forKey key: String = "root") throws -> T {
        try top.decodeCodable(type, forKey: key)
    }
}

/// The fields of one object being unarchived: what `PlistArchivable.decode(from:)` reads.
public final class KeyedArchiveDecoder {
    let reader: ArchiveReader
    let fields: PlistDictionary
    /// The index of this object in `$objects` (`nil` for `$top`).
    public let object: UInt64?

    init(reader: ArchiveReader, fields: PlistDictionary, object: UInt64?) {
        self.reader = reader
        self.fields = fields
        self.object = object
    }

    /// The keys of this object's fields, without `$class`.
    public var allKeys: [String] { fields.keys.filter { $0 != "$class" } }

    /// Whether the object has a field `key`.
    public func contains(_ key: String) -> Bool { fields[key] != nil }

    /// The object referenced by the field `key`, as a `T`.
    /// - Throws: `KeyedArchiveError` (`.keyNotFound`, `.classNotAllowed`, `.typeMismatch`, ...).
    public func decode<T: KeyedArchivable>(_ type: T.Type = T.self, forKey key: String) throws -> T {
        try located(key) { try T.unarchiveObject(try reference(key), in: self) }
    }

    /// The object referenced by the field `key` as a `T`, or `nil` when the field is missing or `$null`.
    /// - Throws: as `decode(_:forKey:)`.
    public func decodeIfPresent<T: KeyedArchivable>(_ type: T.Type = T.self, forKey key: String) throws -> T? {
        guard contains(key) else { return nil }
        return try decode(T?.self, forKey: key)
    }

    /// The object referenced by the field `key`, an instance of one of `types`.
    /// - Throws: as `decode(_:forKey:)`.
    public func decodeObject(of types: [any PlistArchivable.Type], forKey key: String) throws -> any PlistArchivable {
        try located(key) { try reader.instance(try reference(key), allowed: types) }
    }

    /// The Boolean stored inline at `key` (or referenced as an `NSNumber`).
    /// - Throws: `KeyedArchiveError` (`.keyNotFound`, `.typeMismatch`).
    public func decode(_ type: Bool.Type, forKey key: String) throws -> Bool {
        try located(key) { try inline(key, Bool.self) }
    }

    /// The integer stored inline at `key` (or referenced as an `NSNumber`).
    /// - Throws: `KeyedArchiveError` (`.keyNotFound`, `.typeMismatch`).
    public func decode(_ type: Int.Type, forKey key: String) throws -> Int {
        try located(key) { try inline(key, Int.self) }
    }

    /// The integer stored inline at `key` (or referenced as an `NSNumber`).
    /// - Throws: `KeyedArchiveError` (`.keyNotFound`, `.typeMismatch`).
    public func decode(_ type: Int64.Type, forKey key: String) throws -> Int64 {
        try located(key) { try inline(key, Int64.self) }
    }

    /// The number stored inline at `key` (or referenced as an `NSNumber`).
    /// - Throws: `KeyedArchiveError` (`.keyNotFound`, `.typeMismatch`).
    public func decode(_ type: Double.Type, forKey key: String) throws -> Double {
        try located(key) { try inline(key, Double.self) }
    }

    /// The `Codable` value referenced by the field `key` (see `KeyedArchiver.archive(codable:)`).
    /// - Throws: `DecodingError` with the coding path.
    public func decodeCodable<T: Decodable>(_ type: T.Type = T.self, forKey key: String) throws -> T {
        let uid = try located(key) { try reference(key) }
        return try CodableArchiving.unarchive(type, at: uid, reader: reader, codingPath: [ArchiveCodingKey(key)])
    }

    private func reference(_ key: String) throws(KeyedArchiveError) -> UInt64 {
        guard let field = fields[key] else { throw KeyedArchiveError(.keyNotFound(key)) }
        guard case .uid(let uid) = field else { throw KeyedArchiveError(.notAReference) }
        return uid
    }

    private func inline<T: KeyedArchivable>(_ key: String, _ type: T.Type) throws -> T {
        guard let field = fields[key] else { throw KeyedArchiveError(.keyNotFound(key)) }
        if case .uid(let uid) = field { return try T.unarchiveObject(uid, in: self) }
        return try reader.plain(field, as: type)
    }

    /// Runs `body`, adding this object and `key` to a `KeyedArchiveError` that names no object.
    private func located<T>(_ key: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as KeyedArchiveError where error.object == nil {
            error.object = object
            if error.key == nil { error.key = key }
            throw error
        }
    }
}

/// The checked top level of a keyed archive.
struct ArchiveContents {
    var objects: [Plist]
    var top: PlistDictionary

    init(_ plist: Plist) throws(KeyedArchiveError) {
        guard case .dictionary(let archive) = plist, case .array(let objects)? = archive["$objects"] else {
            throw KeyedArchiveError(.notAnArchive)
        }
        guard archive["$archiver"] == "NSKeyedArchiver" else {
            throw KeyedArchiveError(.wrongArchiver(archive["$archiver"]?.string))
        }
        guard archive["$version"] == 100_000 else { throw KeyedArchiveError(.wrongVersion(archive["$version"]?.int64)) }
        guard case .dictionary(let top)? = archive["$top"] else { throw KeyedArchiveError(.missingTop) }
        self.objects = objects
        self.top = top
    }
}

/// The archive being read: `$objects`, the registry, and the objects decoded so far.
final class ArchiveReader {
    let objects: [Plist]
    let maxDepth: Int
    var registry: [String: any PlistArchivable.Type] = [:]
    private var instances: [UInt64: any PlistArchivable] = [:]
    private var values: [ValueKey: Any] = [:]
    private var valuesInProgress: Set<UInt64> = []
    private var depth = 0

    private struct ValueKey: Hashable {
        var uid: UInt64
        var type: ObjectIdentifier
    }

    init(objects: [Plist], maxDepth: Int) {
        self.objects = objects
        self.maxDepth = maxDepth
    }

    /// The object at `uid`, which may be `$null`.
    func raw(_ uid: UInt64) throws(KeyedArchiveError) -> Plist {
        guard uid < UInt64(objects.count) else {
            throw KeyedArchiveError(.referenceOutOfRange(uid, objectCount: objects.count))
        }
        return objects[Int(uid)]
    }

    /// The object at `uid`, which may not be `$null`.
    func object(_ uid: UInt64) throws(KeyedArchiveError) -> Plist {
        guard uid != 0 else { throw KeyedArchiveError(.typeMismatch(expected: "an object, not $null"), object: uid) }
        return try raw(uid)
    }

    /// The class chain of the object at `uid` (its `$classname`, then its `$classes`), or
    /// `nil` when it is a plain value; with its fields.
    func classChain(_ uid: UInt64) throws(KeyedArchiveError) -> (
        chain: [String], fields: PlistDictionary
    )? {
        guard case .dictionary(let fields) = try object(uid) else { return nil }
        guard case .uid(let classUID)? = fields["$class"], case .dictionary(let info) = try raw(classUID),
            let name = info["$classname"]?.string
        else { throw KeyedArchiveError(.missingClass, object: uid) }
        return ([name] + (info["$classes"]?.array ?? []).compactMap(\.string), fields)
    }

    /// The fields of the object at `uid`, whose class (or a class in its `$classes`) must be in `allowed`.
    func classFields(_ uid: UInt64, allowed: [String]) throws(KeyedArchiveError) -> PlistDictionary {
        guard let (chain, fields) = try classChain(uid) else {
            throw KeyedArchiveError(.typeMismatch(expected: "an instance of \(allowed[0])"), object: uid)
        }
        guard chain.contains(where: allowed.contains) else {
            throw KeyedArchiveError(.classNotAllowed(chain[0], allowed: allowed), object: uid)
        }
        return fields
    }

    /// A field of the object `uid` that must be present.
    func field(_ key: String, of fields: PlistDictionary, object uid: UInt64) throws(KeyedArchiveError)
        -> Plist
    {
        guard let value = fields[key] else { throw KeyedArchiveError(.keyNotFound(key), object: uid) }
        return value
    }

    /// The object references in the array field `key` of the object `uid`.
    func references(_ key: String, of fields: PlistDictionary, object uid: UInt64)
        throws(KeyedArchiveError) -> [UInt64]
    {
        guard case .array(let elements) = try field(key, of: fields, object: uid) else {
            throw KeyedArchiveError(.typeMismatch(expected: "an array of object references"), object: uid, key: key)
        }
        return try elements.map { element throws(KeyedArchiveError) in
            guard case .uid(let reference) = element else {
                throw KeyedArchiveError(.notAReference, object: uid, key: key)
            }
            return reference
        }
    }

    /// A plain number or Boolean as `type`.
    func plain<T>(_ value: Plist, as type: T.Type) throws(KeyedArchiveError) -> T {
        let converted: Any? =
            switch type {
            case is Bool.Type: value.bool
            case is Int.Type: value.int
            case is Int64.Type: value.int64
            case is UInt64.Type: value.uint64
            case is Double.Type: value.double ?? value.int64.map(Double.init)
            default: nil
            }
        guard let result = converted as? T else {
            throw KeyedArchiveError(.typeMismatch(expected: "\(type) (NSNumber)"))
        }
        return result
    }

    /// The value of type `T` at `uid`, decoded by `body` once (later uses get the same value).
    /// - Throws: `.cycleThroughValue` when `uid` is reached again while `body` runs, `.tooDeep`.
    func value<T>(_ uid: UInt64, as type: T.Type, _ body: () throws -> T) throws -> T {
        let key = ValueKey(uid: uid, type: ObjectIdentifier(type))
        if let value = values[key] as? T { return value }
        guard valuesInProgress.insert(uid).inserted else { throw KeyedArchiveError(.cycleThroughValue, object: uid) }
        defer { valuesInProgress.remove(uid) }
        try enter()
        defer { depth -= 1 }
        let value = try body()
        values[key] = value
        return value
    }

    /// `type` and the registered types that are subclasses of it.
    func allowedTypes<T: PlistArchivable>(for type: T.Type) -> [any PlistArchivable.Type] {
        [type] + registry.values.filter { $0 is T.Type && ObjectIdentifier($0) != ObjectIdentifier(type) }
    }

    /// The instance at `uid`, of one of `allowed`: created with `init()`, recorded, then decoded.
    func instance(_ uid: UInt64, allowed: [any PlistArchivable.Type]) throws -> any PlistArchivable {
        if let existing = instances[uid] {
            let existingType = ObjectIdentifier(Swift.type(of: existing))
            guard allowed.contains(where: { ObjectIdentifier($0) == existingType }) else {
                let name = Swift.type(of: existing).archiveClassName
                throw KeyedArchiveError(
                    .classNotAllowed(name, allowed: allowed.map { $0.archiveClassName }), object: uid)
            }
            return existing
        }
        guard let described = try classChain(uid) else {
            throw KeyedArchiveError(
                .typeMismatch(expected: "an instance of \(allowed.first?.archiveClassName ?? "an allowed class")"),
                object: uid)
        }
        var matched: (any PlistArchivable.Type)?
        for name in described.chain where matched == nil {
            matched = allowed.first { names(of: $0).contains(name) }
        }
        guard let matched else {
            let allowedNames = allowed.flatMap { names(of: $0) }
            throw KeyedArchiveError(.classNotAllowed(described.chain[0], allowed: allowedNames), object: uid)
        }
        let created = matched.init()
        instances[uid] = created
        let coder = KeyedArchiveDecoder(reader: self, fields: described.fields, object: uid)
        try enter()
        defer { depth -= 1 }
        try created.decode(from: coder)
        return created
    }

    private func names(of type: any PlistArchivable.Type) -> [String] {
        [type.archiveClassName] + registry.filter { ObjectIdentifier($0.value) == ObjectIdentifier(type) }.keys.sorted()
    }

    /// Goes one level deeper (the caller steps back with `depth -= 1`).
    /// - Throws: `.tooDeep` beyond `maxDepth`.
    private func enter() throws(KeyedArchiveError) {
        guard depth < maxDepth else { throw KeyedArchiveError(.tooDeep(limit: maxDepth)) }
        depth += 1
    }
}
