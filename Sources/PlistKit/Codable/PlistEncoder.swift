import Synchronization
public import SystemPackage

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Encodes `Encodable` values as property lists in any format this package writes: a drop-in
/// for Foundation's `PropertyListEncoder` (same shape; its bytes decode with Foundation's
/// `PropertyListDecoder` to equal values, and the other way round).
///
/// It builds a `FlatPlist` (flat arrays, far cheaper to build than the `Plist` tree), which the
/// binary and XML writers write directly; other formats and `encodeToPlist` go through the tree.
/// The bytes are those the writers of `Plist` give for `encodeToPlist`'s value. As in
/// Foundation, `nil` in a container is the string `$null`, a URL is `{relative = ...; base = ...}`
/// (URL's own `Codable`), and `Data` and `Date` are the property-list types. Beyond Foundation: OpenStep
/// (with GNUstep typed values, so numbers survive) and JSON output, key encoding strategies, and
/// date encoding strategies for formats without a date type.
public final class PlistEncoder: Sendable {
    /// How coding keys become keys in the property list.
    public enum KeyEncodingStrategy: Sendable {
        /// Keys are used as they are (the default).
        case useDefaultKeys
        /// `camelCase` coding keys become `snake_case` keys (`firstName` → `first_name`).
        case convertToSnakeCase
        /// A function makes the key from the coding path, whose last element is the coding key.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How dates are encoded.
    public enum DateEncodingStrategy: Sendable {
        /// As property-list dates (the default, as Foundation).
        case deferredToDate
        /// As ISO 8601 strings (`2001-01-01T00:00:00Z`, with the fraction of a second when there is one).
        case iso8601
        /// As reals: seconds since 1970-01-01 00:00:00 UTC.
        case secondsSince1970
        /// As reals: seconds since 2001-01-01 00:00:00 UTC.
        case secondsSinceReferenceDate
        /// A function that encodes the date into the encoder it is given.
        case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
    }

    /// The settings, behind a lock: one coder may be shared by tasks and threads.
    private let settings = Mutex(Settings())

    private struct Settings {
        var outputFormat: PlistFormat = .binary
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
        var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
        var dateEncodingStrategy: DateEncodingStrategy = .deferredToDate
        var writeOptions: PlistWriteOptions = PlistWriteOptions(openStepValues: .gnustep)
        var parallelism = 1

        var encodingOptions: PlistValueEncoder.Options {
            PlistValueEncoder.Options(userInfo: userInfo, keys: keyEncodingStrategy, dates: dateEncodingStrategy)
        }
    }

    /// The format `encode` writes; `.binary` by default, as Foundation.
    public var outputFormat: PlistFormat {
        get { settings.withLock { $0.outputFormat } }
        set { settings.withLock { $0.outputFormat = newValue } }
    }
    /// Values for the `Encodable` types to read.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { settings.withLock { $0.userInfo } }
        set { settings.withLock { $0.userInfo = newValue } }
    }
    /// How keys are written; `.useDefaultKeys` by default.
    public var keyEncodingStrategy: KeyEncodingStrategy {
        get { settings.withLock { $0.keyEncodingStrategy } }
        set { settings.withLock { $0.keyEncodingStrategy = newValue } }
    }
    /// How dates are written; `.deferredToDate` by default.
    public var dateEncodingStrategy: DateEncodingStrategy {
        get { settings.withLock { $0.dateEncodingStrategy } }
        set { settings.withLock { $0.dateEncodingStrategy = newValue } }
    }
    /// Options for the writer: key order, depth limit, OpenStep values (GNUstep typed by
    /// default, so that numbers, Booleans and dates survive), JSON form.
    public var writeOptions: PlistWriteOptions {
        get { settings.withLock { $0.writeOptions } }
        set { settings.withLock { $0.writeOptions = newValue } }
    }

    /// XML: how many threads may write one document. 1 (the default) writes it on the calling
    /// thread, and no thread is started. With more, a large document (tens of thousands of
    /// values or more) is shared out to up to that many threads, no more than there are
    /// processors, and comes out sooner when processors are idle; the threads use more processor
    /// time in all, and their parts more memory, than one thread would. The bytes are the same
    /// either way. Small documents and the other formats always use one thread.
    public var parallelism: Int {
        get { settings.withLock { $0.parallelism } }
        set { settings.withLock { $0.parallelism = newValue } }
    }

    /// An encoder with the default settings.
    public init() {}

    /// The value as a property list in `outputFormat`.
    /// - Throws: `EncodingError.invalidValue` with the coding path of a value that cannot be
    ///   encoded, or the writer's error (such as a value the format cannot hold) in its context.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(adopting: try encodeToBytes(value))
    }

    /// The value as the bytes of a property list in `outputFormat`.
    /// - Throws: `EncodingError.invalidValue`, as `encode(_:)`.
    public func encodeToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        try bytes(of: value) { try $0.encode(value) }
    }

    /// The value, which needs `configuration` to encode, as a property list in `outputFormat`,
    /// as `PropertyListEncoder.encode(_:configuration:)`.
    /// - Throws: `EncodingError.invalidValue`, as `encode(_:)`.
    public func encode<T: EncodableWithConfiguration>(_ value: T, configuration: T.EncodingConfiguration) throws
        -> Data
    {
        Data(adopting: try bytes(of: value) { try value.encode(to: $0, configuration: configuration) })
    }

    /// The value, encoded with the configuration `C` provides, as a property list in `outputFormat`.
    /// - Throws: `EncodingError.invalidValue`, as `encode(_:)`.
    public func encode<T, C>(_ value: T, configuration: C.Type) throws -> Data
    where
        T: EncodableWithConfiguration, C: EncodingConfigurationProviding,
        T.EncodingConfiguration == C.EncodingConfiguration
    {
        try encode(value, configuration: C.encodingConfiguration)
    }

    /// The bytes of `value`, which `encode` encodes into the top value's encoder.
    private func bytes<T>(of value: T, _ encode: (PlistValueEncoder) throws -> Void) throws -> [UInt8] {
        let settings = settings.withLock { $0 }
        let format = settings.outputFormat
        var writeOptions = settings.writeOptions
        // XML dates as Foundation's encoder writes them (the Julian calendar before 1582-10-15).
        writeOptions.rules = .codable
        let flat = try PlistValueEncoder.encode(options: settings.encodingOptions, encode)
        if let fragment = flat.fragmentName(at: 0) {
            // As Foundation: a property list is a container (or data) in every format.
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription: "Top-level \(T.self) encoded as \(fragment) property list fragment."))
        }
        do {
            switch format {
            case .binary: return try flat.binaryBytes(options: writeOptions)
            case .xml: return try flat.xmlBytes(options: writeOptions, parallelism: settings.parallelism)
            case .openStep, .strings, .json:
                return try flat.plist(at: 0).bytes(format: format, options: writeOptions)
            }
        } catch {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [], debugDescription: "Cannot write \(format.name): \(error)",
                    underlyingError: error))
        }
    }

    /// Writes the value as a property list in `outputFormat` to the file at `path`, atomically.
    /// - Throws: `EncodingError.invalidValue` as `encode(_:)`, or `PlistError` with `.io` when
    ///   the file cannot be written (the old file is then intact).
    public func encode<T: Encodable>(_ value: T, toFile path: String) throws {
        try PlistFile.write(try encodeToBytes(value), to: path)
    }

    /// The value as a `Plist` tree, which may be a single value (a string, a number, ...),
    /// unlike the property lists `encode` writes.
    /// - Throws: `EncodingError.invalidValue` with the coding path of a value that cannot be encoded.
    public func encodeToPlist<T: Encodable>(_ value: T) throws -> Plist {
        try PlistValueEncoder.encode(options: settings.withLock { $0.encodingOptions }) { try $0.encode(value) }
            .plist(at: 0)
    }
}

extension PlistEncoder {
    /// Writes the value as a property list in `outputFormat` to the file at `url`, atomically.
    /// - Throws: `EncodingError.invalidValue` as `encode(_:)`, or `PlistError` with `.io` when
    ///   `url` is not a file URL or the file cannot be written (the old file is then intact).
    public func encode<T: Encodable>(_ value: T, to url: URL) throws {
        try encode(value, toFile: try FileIO.path(of: url))
    }

    /// Writes the value as a property list in `outputFormat` to the file at `path`, atomically.
    /// - Throws: `EncodingError.invalidValue` as `encode(_:)`, or `PlistError` with `.io` when
    ///   the file cannot be written (the old file is then intact).
    public func encode<T: Encodable>(_ value: T, to path: FilePath) throws {
        try encode(value, toFile: path.string)
    }
}
