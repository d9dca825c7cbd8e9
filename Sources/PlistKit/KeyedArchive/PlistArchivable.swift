/// A type whose values a keyed archive stores as objects in `$objects`.
///
/// The package provides the conformances: `String`, `Int`, `Int64`, `UInt64`, `Double` and `Bool`
/// (`NSString`, `NSNumber`), `Date` (`NSDate`), `Data` (`NSData`), `UUID` (`NSUUID`), `URL`
/// (`NSURL`), arrays, sets and dictionaries of archivable values (`NSArray`, `NSSet`,
/// `NSDictionary`), `Optional` (`$null`), `Plist`, `KeyedArchiveNull` (`NSNull`), and every
/// `PlistArchivable` class. Adopt `PlistArchivable` for your own classes rather than this protocol.
public protocol KeyedArchivable {
    /// Stores the value in the archive `archive` writes and returns its index in `$objects`.
    func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64
    /// Reads a value of this type from the object at index `reference` of the archive `archive` reads.
    static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Self
}

/// A class archived by name, in the spirit of `NSCoding`: the archive stores each instance once,
/// so shared references stay shared and reference cycles survive a round trip.
///
/// Decoding is in two phases, as `NSKeyedUnarchiver` allocates an object before it calls
/// `initWithCoder:`: the unarchiver creates the instance with `init()`, records it, and then calls
/// `decode(from:)`, so an object reached again through a cycle while its fields are being decoded
/// is the same instance (whose fields may not all be set yet).
public protocol PlistArchivable: AnyObject, KeyedArchivable {
    /// The class name written as `$classname` (for example `"MyApp.Note"`, or `"Note"` to match a
    /// Foundation class declared with `@objc(Note)`).
    static var archiveClassName: String { get }
    /// The class and its superclasses, written as `$classes` (with `archiveClassName` put first
    /// if missing); the default is `[archiveClassName, "NSObject"]`.
    static var archiveClassChain: [String] { get }
    /// An instance whose fields `decode(from:)` then sets.
    init()
    /// Stores the instance's fields in `coder`.
    func encode(with coder: KeyedArchiveEncoder) throws
    /// Reads the instance's fields from `coder`.
    func decode(from coder: KeyedArchiveDecoder) throws
}

extension PlistArchivable {
    /// `[archiveClassName, "NSObject"]`.
    public static var archiveClassChain: [String] { [archiveClassName, "NSObject"] }

    /// Stores the instance once (later uses refer to the same object) and returns its index.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try archive.writer.instance(self)
    }

    /// The instance at `reference`, created and decoded the first time it is reached.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Self {
        let instance = try archive.reader.instance(reference, allowed: archive.reader.allowedTypes(for: Self.self))
        guard let typed = instance as? Self else {
            throw KeyedArchiveError(
                .classNotAllowed(type(of: instance).archiveClassName, allowed: [archiveClassName]), object: reference)
        }
        return typed
    }
}

/// Foundation's `NSNull`: a placeholder object, distinct from a missing value (`$null`).
public struct KeyedArchiveNull: Hashable, Sendable, KeyedArchivable {
    /// The null object.
    public init() {}

    /// Stores an `NSNull` object.
    public func archiveObject(in archive: KeyedArchiveEncoder) throws -> UInt64 {
        try archive.writer.valueObject(classChain: ["NSNull", "NSObject"]) { _ in }
    }

    /// Reads an `NSNull` object.
    public static func unarchiveObject(_ reference: UInt64, in archive: KeyedArchiveDecoder) throws -> Self {
        _ = try archive.reader.classFields(reference, allowed: ["NSNull"])
        return KeyedArchiveNull()
    }
}
