import PlistCore

/// Writes object graphs as keyed archives with the structure of `NSKeyedArchiver`'s output:
/// `$archiver` `NSKeyedArchiver`, `$version` 100000, `$top` with the root under `"root"`, and
/// `$objects` starting with `$null`, each class instance stored once.
public struct KeyedArchiver: Sendable {
    /// The deepest nesting of objects written; deeper graphs are rejected with `.tooDeep`.
    public var maxDepth: Int

    /// An archiver with the given depth limit.
    public init(maxDepth: Int = 512) {
        self.maxDepth = maxDepth
    }

    /// The archive of `root`, as a property list.
    /// - Throws: `KeyedArchiveError` (`.tooDeep`, `.notArchivable`), or what an `encode(with:)` throws.
    public func archive(_ root: some KeyedArchivable) throws -> Plist {
        try archive { coder in try coder.encode(root, forKey: "root") }
    }

    /// The archive of the `Codable` value `root`: keyed containers become `NSDictionary` objects,
    /// unkeyed containers `NSArray` objects, and single values the objects of their types.
    /// - Throws: `EncodingError`, or what the value's `encode(to:)` throws.
    public func archive(codable root: some Encodable) throws -> Plist {
        try archive { coder in try coder.encodeCodable(root, forKey: "root") }
    }

    /// The archive of `root`, encoded in `format` (binary, as Foundation writes by default, or XML).
    /// - Throws: as `archive(_:)`, or `PlistError` from the writer.
    public func archivedBytes(_ root: some KeyedArchivable, format: PlistFormat = .binary) throws -> [UInt8] {
        try archive(root).bytes(format: format)
    }

    private func archive(_ body: (KeyedArchiveEncoder) throws -> Void) throws -> Plist {
        let writer = ArchiveWriter(maxDepth: maxDepth)
        let top = KeyedArchiveEncoder(writer: writer)
        try body(top)
        return [
            "$archiver": "NSKeyedArchiver",
            "$objects": .array(writer.objects),
            "$top": .dictionary(top.fields),
            "$version": 100_000,
        ]
    }
}

/// The fields of one object being archived: what `PlistArchivable.encode(with:)` writes to.
///
/// Numbers and Booleans stored with the non-generic `encode` methods are written inline in the
/// object (as `encodeInteger:forKey:` and friends do); everything else is written as a reference
/// to an object of its own.
public final class KeyedArchiveEncoder {
    let writer: ArchiveWriter
    var fields: PlistDictionary = [:]

    init(writer: ArchiveWriter) {
        self.writer = writer
    }

    /// Stores `value` as a reference to its object.
    /// - Throws: `KeyedArchiveError`, or what a nested `encode(with:)` throws.
    public func encode(_ value: some KeyedArchivable, forKey key: String) throws {
        fields[key] = .uid(try value.archiveObject(in: self))
    }

    /// Stores `value` inline.
    public func encode(_ value: Bool, forKey key: String) { fields[key] = .bool(value) }

    /// Stores `value` inline.
    public func encode(_ value: Int, forKey key: String) { fields[key] = Plist(value) }

    /// Stores `value` inline.
    public func encode(_ value: Int64, forKey key: String) { fields[key] = Plist(value) }

    /// Stores `value` inline.
    public func encode(_ value: Double, forKey key: String) { fields[key] = .real(value) }

    /// Stores the `Codable` value `value` as a reference to its object (see `KeyedArchiver.archive(codable:)`).
    /// - Throws: `EncodingError`, or what the value's `encode(to:)` throws.
    public func encodeCodable(_ value: some Encodable, forKey key: String) throws {
        fields[key] = .uid(try CodableArchiving.archive(value, in: writer, codingPath: []))
    }
}

/// The archive being written: `$objects`, and the objects already stored.
final class ArchiveWriter {
    private(set) var objects: [Plist] = ["$null"]
    private var classes: [String: UInt64] = [:]
    /// Strings by their exact spelling: two spellings of one text are two objects.
    private var strings: [ExactKey: UInt64] = [:]
    private var instances: [ObjectIdentifier: UInt64] = [:]
    private var retained: [AnyObject] = []  // keeps each ObjectIdentifier in `instances` unique
    private var depth = 0
    let maxDepth: Int

    init(maxDepth: Int) {
        self.maxDepth = maxDepth
    }

    /// Appends a plain value (a number, a Boolean or data) and returns its index.
    func append(_ value: Plist) -> UInt64 {
        objects.append(value)
        return UInt64(objects.count - 1)
    }

    /// The index of the string `value`, stored once however often it is used.
    func string(_ value: String) -> UInt64 {
        if let uid = strings[ExactKey(value)] { return uid }
        let uid = append(.string(value))
        strings[ExactKey(value)] = uid
        return uid
    }

    /// Stores an object of the class `classChain[0]` whose fields `body` writes (its children
    /// come after it in `$objects`, as with `NSKeyedArchiver`), and returns its index.
    func valueObject(classChain: [String], _ body: (KeyedArchiveEncoder) throws -> Void) throws -> UInt64 {
        let uid = append("$null")
        let coder = KeyedArchiveEncoder(writer: self)
        try nested { try body(coder) }
        finish(uid, classChain: classChain, fields: coder.fields)
        return uid
    }

    /// The index of `instance`, which is stored (with its fields) the first time only.
    func instance(_ instance: some PlistArchivable) throws -> UInt64 {
        if let uid = instances[ObjectIdentifier(instance)] { return uid }
        let uid = append("$null")
        instances[ObjectIdentifier(instance)] = uid
        retained.append(instance)
        let coder = KeyedArchiveEncoder(writer: self)
        try nested { try instance.encode(with: coder) }
        let type = type(of: instance)
        var chain = type.archiveClassChain
        if chain.first != type.archiveClassName { chain.insert(type.archiveClassName, at: 0) }
        finish(uid, classChain: chain, fields: coder.fields)
        return uid
    }

    /// Runs `body` one level deeper.
    /// - Throws: `.tooDeep` beyond `maxDepth`, or what `body` throws.
    func nested<T>(_ body: () throws -> T) throws -> T {
        guard depth < maxDepth else { throw KeyedArchiveError(.tooDeep(limit: maxDepth)) }
        depth += 1
        defer { depth -= 1 }
        return try body()
    }

    private func finish(_ uid: UInt64, classChain: [String], fields: PlistDictionary) {
        var object: PlistDictionary = ["$class": .uid(classReference(classChain))]
        object.merge(fields) { _, field in field }
        objects[Int(uid)] = .dictionary(object)
    }

    /// The index of the `$classname`/`$classes` entry of `chain` (which is never empty).
    private func classReference(_ chain: [String]) -> UInt64 {
        if let uid = classes[chain[0]] { return uid }
        let uid = append(["$classes": .array(chain.map(Plist.string)), "$classname": .string(chain[0])])
        classes[chain[0]] = uid
        return uid
    }
}
