import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Decodes `Decodable` values from property lists in any format this package reads: a drop-in
/// for Foundation's `PropertyListDecoder` (same shape, same results on the same bytes).
///
/// Binary files are decoded object by object straight from the bytes, and the XML documents that
/// real writers produce from a table of the document (`XMLScanner`) without building the tree;
/// other input is read into a `Plist` with the format's reader, then decoded from the tree. When
/// a value does not fit its type, an XML document is decoded again through the tree, whose
/// errors say where the value is (so a `Decodable` type's `init(from:)` can run twice then).
/// Beyond Foundation: key decoding strategies, date decoding strategies for formats without a
/// date type (OpenStep, JSON), and errors that say where in the input a bad value is.
///
/// Conversions, as Foundation's: integers decode from integers and from reals with an integral
/// value, and must fit the type exactly; floating-point types decode from reals and integers;
/// `Float` fails for a finite value beyond its range; strings holding numbers or Booleans
/// (OpenStep has only strings) decode as those numbers and Booleans (`YES`/`NO`, `true`/`false`,
/// `1`/`0`; Foundation's decoder refuses those); the string `$null` is `nil`; a URL decodes
/// from Foundation's `{relative, base}` form and from its absolute string.
public final class PlistDecoder: Sendable {
    /// How keys in the property list become coding keys.
    public enum KeyDecodingStrategy: Sendable {
        /// Keys are used as they are (the default).
        case useDefaultKeys
        /// `snake_case` keys become `camelCase` coding keys (`first_name` → `firstName`).
        case convertFromSnakeCase
        /// A function makes the coding key from the coding path, whose last element is the key
        /// as it is in the property list.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How dates are decoded when the property list holds no date (OpenStep, JSON).
    public enum DateDecodingStrategy: Sendable {
        /// Only property-list dates (the default, as Foundation).
        case deferredToDate
        /// Also ISO 8601 strings (`2001-01-01T00:00:00Z`, a fraction of a second allowed).
        case iso8601
        /// Also numbers of seconds since 1970-01-01 00:00:00 UTC.
        case secondsSince1970
        /// Also numbers of seconds since 2001-01-01 00:00:00 UTC.
        case secondsSinceReferenceDate
        /// A function that decodes the date from a single-value container.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// The settings, behind a lock: one coder may be shared by tasks and threads.
    private let settings = Mutex(Settings())

    private struct Settings {
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
        var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys
        var dateDecodingStrategy: DateDecodingStrategy = .deferredToDate
        var readOptions: PlistReadOptions = PlistReadOptions()
    }

    /// Values for the `Decodable` types to read.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { settings.withLock { $0.userInfo } }
        set { settings.withLock { $0.userInfo = newValue } }
    }
    /// How keys are matched; `.useDefaultKeys` by default.
    public var keyDecodingStrategy: KeyDecodingStrategy {
        get { settings.withLock { $0.keyDecodingStrategy } }
        set { settings.withLock { $0.keyDecodingStrategy = newValue } }
    }
    /// How dates are decoded; `.deferredToDate` by default.
    public var dateDecodingStrategy: DateDecodingStrategy {
        get { settings.withLock { $0.dateDecodingStrategy } }
        set { settings.withLock { $0.dateDecodingStrategy = newValue } }
    }
    /// Limits for reading the bytes.
    public var readOptions: PlistReadOptions {
        get { settings.withLock { $0.readOptions } }
        set { settings.withLock { $0.readOptions = newValue } }
    }

    /// A decoder with the default strategies.
    public init() {}

    /// Decodes a `T` from a property list in any supported format (detected).
    /// - Throws: `DecodingError`: `.dataCorrupted` for bytes that are not a property list (the
    ///   reader's message and location in the debug description), else the error of the value
    ///   that does not fit, with its coding path.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        var format = PlistFormat.binary
        return try decode(type, from: data, format: &format)
    }

    /// Decodes a `T` from a property list in any supported format, and reports the format.
    /// - Throws: `DecodingError`, as `decode(_:from:)`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, format: inout PlistFormat) throws -> T {
        let detected = try? Plist.format(of: data.span)
        if detected == .binary {
            format = .binary
            var bytes = [UInt8](largeCapacity: data.count)
            bytes.append(contentsOf: data)
            return try decode(type, fromBinary: bytes)
        }
        // The table reads the bytes in place: no copy of the document.
        if detected == .xml, let table = XMLScanner.table(of: data, options: readOptions) {
            format = .xml
            do {
                return try decode(type, from: table)
            } catch is DecodingError {
                // Read again through the tree below, which gives the error with its line and column.
            }
        }
        let bytes = [UInt8](data)
        let value: Plist
        do {
            (value, format) = try Plist.read(bytes: bytes.span, options: readOptions)
        } catch {
            throw Self.notAPropertyList(error)
        }
        do {
            return try decode(type, from: value)
        } catch let error as DecodingError {
            throw locating(error, in: bytes, format: format, top: value)
        }
    }

    /// Binary files are decoded as the `Decodable` types ask for their values, without building
    /// the `Plist` tree first. The reader's checks and limits apply to every object read;
    /// objects no type asks for are not read.
    private func decode<T: Decodable>(_ type: T.Type, fromBinary bytes: [UInt8]) throws -> T {
        let objects: BinaryObjects
        do {
            objects = try BinaryObjects(bytes, options: readOptions)
        } catch {
            throw Self.notAPropertyList(error)
        }
        return try decode(type, from: objects)
    }

    /// Decodes the top value of an indexed document.
    private func decode<T: Decodable>(_ type: T.Type, from document: any IndexedPlist) throws -> T {
        try decode(type, .object(document.top), source: document)
    }

    private static func notAPropertyList(_ error: PlistError) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(
                codingPath: [], debugDescription: "The data is not a valid property list: \(error)",
                underlyingError: error))
    }

    /// Decodes a `T` from the bytes of a property list in any supported format.
    /// - Throws: `DecodingError`, as `decode(_:from:)`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: Data(bytes))
    }

    /// Decodes a `T` from a property-list value.
    /// - Throws: `DecodingError` for a value that does not fit, with its coding path.
    public func decode<T: Decodable>(_ type: T.Type, from value: Plist) throws -> T {
        try decode(type, .value(value), source: nil)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ top: DecodingNode, source: (any IndexedPlist)?) throws -> T {
        let context = DecodingContext(options: options)
        // `unbox` decodes the top value with a decoder one level inside this one: depth 0.
        return try PlistValueDecoder(node: top, context: context, source: source, depth: -1, parent: nil, step: .same)
            .unbox(top, as: type, at: .same)
    }

    var options: PlistValueDecoder.Options {
        settings.withLock { settings in
            PlistValueDecoder.Options(
                userInfo: settings.userInfo, keys: settings.keyDecodingStrategy, dates: settings.dateDecodingStrategy)
        }
    }
}
