import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Decodes `Decodable` values from property lists in the formats of `allowedFormats` (by
/// default those Foundation's decoder reads; JSON when allowed): a drop-in for Foundation's
/// `PropertyListDecoder` (same shape, same results on the same bytes).
///
/// Binary files are decoded object by object straight from the bytes, and the XML documents that
/// real writers produce from a table of the document (`XMLScanner`) without building the tree;
/// other input is read into a `Plist` with the format's reader, then decoded from the tree. The
/// document is read once and each `init(from:)` runs once, also when a value does not fit.
/// XML dates are read as Foundation's decoder reads them (the Julian calendar before
/// 1582-10-15). Beyond Foundation: key decoding strategies, date decoding strategies for formats
/// without a date type (OpenStep, JSON), and errors that say where in the input a bad value is.
///
/// Conversions, as Foundation's: integers decode from integers and from reals with an integral
/// value, and must fit the type exactly; floating-point types decode from reals and integers;
/// `Float` fails for a finite value beyond its range; the string `$null` is `nil`; a URL
/// decodes from Foundation's `{relative, base}` form. For OpenStep, `.strings` and JSON input
/// (not binary, XML or `Plist` values, where Foundation's rules hold), strings also decode as
/// numbers, Booleans (`YES`/`NO`, `true`/`false`, `1`/`0`) and URLs (their absolute string).
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
        var allowedFormats: Set<PlistFormat> = PlistDecoder.foundationFormats

        var decodingOptions: PlistValueDecoder.Options {
            PlistValueDecoder.Options(userInfo: userInfo, keys: keyDecodingStrategy, dates: dateDecodingStrategy)
        }
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

    /// The formats `decode` reads; others are refused with `DecodingError.dataCorrupted`. By
    /// default ``foundationFormats``, what Foundation's `PropertyListDecoder` reads; add `.json`
    /// to read JSON too.
    public var allowedFormats: Set<PlistFormat> {
        get { settings.withLock { $0.allowedFormats } }
        set { settings.withLock { $0.allowedFormats = newValue } }
    }

    /// Binary, XML, OpenStep and `.strings` text: the formats Foundation's decoder reads.
    public static let foundationFormats: Set<PlistFormat> = [.binary, .xml, .openStep, .strings]

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
        try decode(data, format: &format) { decoder, top in try decoder.unbox(top, as: type, at: .same) }
    }

    /// Decodes a `T` that needs `configuration` to decode, from a property list in any
    /// supported format, as `PropertyListDecoder.decode(_:from:configuration:)`.
    /// - Throws: `DecodingError`, as `decode(_:from:)`.
    public func decode<T: DecodableWithConfiguration>(
        _ type: T.Type, from data: Data, configuration: T.DecodingConfiguration
    ) throws -> T {
        var format = PlistFormat.binary
        return try decode(type, from: data, format: &format, configuration: configuration)
    }

    /// Decodes a `T` with the configuration `C` provides.
    /// - Throws: `DecodingError`, as `decode(_:from:)`.
    public func decode<T, C>(_ type: T.Type, from data: Data, configuration: C.Type) throws -> T
    where
        T: DecodableWithConfiguration, C: DecodingConfigurationProviding,
        T.DecodingConfiguration == C.DecodingConfiguration
    {
        try decode(type, from: data, configuration: C.decodingConfiguration)
    }

    /// Decodes a `T` that needs `configuration` to decode, and reports the format.
    /// - Throws: `DecodingError`, as `decode(_:from:)`.
    public func decode<T: DecodableWithConfiguration>(
        _ type: T.Type, from data: Data, format: inout PlistFormat, configuration: T.DecodingConfiguration
    ) throws -> T {
        try decode(data, format: &format) { decoder, top in
            try type.init(from: decoder.child(top, .same), configuration: configuration)
        }
    }

    /// Decodes a `T` with the configuration `C` provides, and reports the format.
    /// - Throws: `DecodingError`, as `decode(_:from:)`.
    public func decode<T, C>(_ type: T.Type, from data: Data, format: inout PlistFormat, configuration: C.Type) throws
        -> T
    where
        T: DecodableWithConfiguration, C: DecodingConfigurationProviding,
        T.DecodingConfiguration == C.DecodingConfiguration
    {
        try decode(type, from: data, format: &format, configuration: C.decodingConfiguration)
    }

    /// Decodes a `T` from the bytes of a property list in any supported format.
    /// - Throws: `DecodingError`, as `decode(_:from:)`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: Data(bytes))
    }

    /// Decodes a `T` from a property-list value.
    /// - Throws: `DecodingError` for a value that does not fit, with its coding path.
    public func decode<T: Decodable>(_ type: T.Type, from value: Plist) throws -> T {
        try Self.run(TreeDocument(value), options: options) { decoder, top in
            try decoder.unbox(top, as: type, at: .same)
        }
    }

    /// Reads `data` in its format and runs `body` on its top value, once.
    ///
    /// Binary files are decoded as the `Decodable` types ask for their values, without building
    /// the `Plist` tree first (`BinaryObjects`); so are the XML documents the scanner reads
    /// (`XMLTable`). Both read from a copy of the bytes in an array, and give each error its
    /// place (a byte offset, a line and column). Other documents are read into a `Plist`, and a
    /// decoding error is given its line and column by reading the text again (`locating`).
    private func decode<T>(
        _ data: Data, format: inout PlistFormat, _ body: (PlistValueDecoder, Int) throws -> T
    ) throws -> T {
        let (options, readOptions, allowed) = settings.withLock { settings in
            var readOptions = settings.readOptions
            // XML dates as Foundation's decoder reads them (the Julian calendar before 1582-10-15).
            readOptions.rules = .codable
            return (settings.decodingOptions, readOptions, settings.allowedFormats)
        }
        let detected = try? Plist.format(of: data.span)
        if let detected { try Self.check(detected, allowed: allowed) }
        if let detected, detected == .binary || detected == .xml {
            // An array's span costs nothing to take; `Data`'s checks exclusive access each time,
            // which the table's many reads of the document felt.
            var bytes = [UInt8](largeCapacity: data.count)
            bytes.append(contentsOf: data)
            return try decode(
                bytes, detected: detected, format: &format, options: options, readOptions: readOptions, body)
        }
        return try decodeText([UInt8](data), format: &format, options: options, readOptions: readOptions, body)
    }

    /// Refuses a document in a format the caller does not allow.
    private static func check(_ format: PlistFormat, allowed: Set<PlistFormat>) throws {
        guard !allowed.contains(format) else { return }
        let names = PlistFormat.allCases.filter(allowed.contains).map(\.name).joined(separator: ", ")
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: [],
                debugDescription: "The data is a property list in \(format.name), which this decoder does not read "
                    + "(allowedFormats: \(names.isEmpty ? "none" : names))."))
    }

    /// `decode(_:format:_:)` for binary and XML documents.
    private func decode<T>(
        _ bytes: [UInt8], detected: PlistFormat, format: inout PlistFormat, options: PlistValueDecoder.Options,
        readOptions: PlistReadOptions, _ body: (PlistValueDecoder, Int) throws -> T
    ) throws -> T {
        var options = options
        if detected == .binary {
            let objects: BinaryObjects
            do {
                objects = try BinaryObjects(bytes, options: readOptions)
            } catch {
                throw Self.notAPropertyList(error)
            }
            format = .binary
            return try Self.run(objects, options: options, body)
        }
        // Text is parsed as the type asked for: a real as the nearest `Float`.
        options.roundsRealsToFloat = true
        if let table = XMLScanner.table(of: bytes, options: readOptions) {
            format = .xml
            return try Self.run(table, options: options, body)
        }
        return try decodeText(bytes, format: &format, options: options, readOptions: readOptions, body)
    }

    /// `decode(_:format:_:)` for text the scanner does not read: through the tree.
    private func decodeText<T>(
        _ bytes: [UInt8], format: inout PlistFormat, options: PlistValueDecoder.Options, readOptions: PlistReadOptions,
        _ body: (PlistValueDecoder, Int) throws -> T
    ) throws -> T {
        var options = options
        options.roundsRealsToFloat = true
        let value: Plist
        do {
            (value, format) = try Plist.read(bytes: bytes.span, options: readOptions)
        } catch {
            throw Self.notAPropertyList(error)
        }
        do {
            options.readsValuesFromStrings = format != .xml
            return try Self.run(TreeDocument(value), options: options, body)
        } catch let error as DecodingError {
            throw Self.locating(
                error, in: bytes, format: format, top: value, options: options, readOptions: readOptions)
        }
    }

    /// Runs `body` with a decoder one level above the top value, so that the decoder `body`
    /// makes for the top value has depth 0.
    private static func run<T>(
        _ document: any IndexedPlist, options: PlistValueDecoder.Options,
        _ body: (PlistValueDecoder, Int) throws -> T
    ) throws -> T {
        let context = DecodingContext(options: options)
        let top = document.top
        return try body(
            PlistValueDecoder(node: top, context: context, document: document, depth: -1, parent: nil, step: .same),
            top)
    }

    private static func notAPropertyList(_ error: PlistError) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(
                codingPath: [], debugDescription: "The data is not a valid property list: \(error)",
                underlyingError: error))
    }

    var options: PlistValueDecoder.Options { settings.withLock { $0.decodingOptions } }
}
