public import SystemPackage

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

// The file APIs take a `String` path, a file `URL` or a `FilePath`; these forward the last two
// to the first.

extension Plist {
    /// Reads the property-list file at `url` (memory-mapped when large) and tells which format
    /// it was in.
    /// - Throws: `PlistError` with `.io` when `url` is not a file URL or the file cannot be
    ///   read, else as `read(bytes:)`.
    public static func read(contentsOf url: URL, options: PlistReadOptions = .init()) throws(PlistError) -> (
        value: Plist, format: PlistFormat
    ) {
        try read(contentsOf: try FileIO.path(of: url), options: options)
    }

    /// Reads the property-list file at `path` (memory-mapped when large) and tells which format
    /// it was in.
    /// - Throws: `PlistError` with `.io` when the file cannot be read, else as `read(bytes:)`.
    public static func read(contentsOf path: FilePath, options: PlistReadOptions = .init()) throws(PlistError) -> (
        value: Plist, format: PlistFormat
    ) {
        try read(contentsOf: path.string, options: options)
    }

    /// Reads the property-list file at `url`, in any supported format.
    /// - Throws: `PlistError` with `.io` when `url` is not a file URL or the file cannot be
    ///   read, else as `init(bytes:)`.
    public init(contentsOf url: URL, options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(contentsOf: try FileIO.path(of: url), options: options)
    }

    /// Reads the property-list file at `path`, in any supported format.
    /// - Throws: `PlistError` with `.io` when the file cannot be read, else as `init(bytes:)`.
    public init(contentsOf path: FilePath, options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(contentsOf: path.string, options: options)
    }

    /// Writes the value in `format` to the file at `url`, atomically (see `write(to:format:options:)`).
    /// - Throws: `PlistError` from encoding, or `.io` when `url` is not a file URL or the file
    ///   cannot be written.
    public func write(to url: URL, format: PlistFormat, options: PlistWriteOptions = .init()) throws(PlistError) {
        try write(to: try FileIO.path(of: url), format: format, options: options)
    }

    /// Writes the value in `format` to the file at `path`, atomically (see `write(to:format:options:)`).
    /// - Throws: `PlistError` from encoding, or `.io` when the file cannot be written.
    public func write(to path: FilePath, format: PlistFormat, options: PlistWriteOptions = .init()) throws(PlistError) {
        try write(to: path.string, format: format, options: options)
    }
}

extension PlistFile {
    /// Writes `bytes` to the file at `url` atomically, as `write(_:to:)` with a path does.
    /// - Throws: `PlistError` with `.io` when `url` is not a file URL or the file cannot be written.
    public static func write(_ bytes: [UInt8], to url: URL) throws(PlistError) {
        try write(bytes, to: try FileIO.path(of: url))
    }

    /// Writes `bytes` to the file at `path` atomically, as `write(_:to:)` with a `String` path does.
    /// - Throws: `PlistError` with `.io` when the file cannot be written.
    public static func write(_ bytes: [UInt8], to path: FilePath) throws(PlistError) {
        try write(bytes, to: path.string)
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

extension FileIO {
    /// The path of a file URL.
    static func path(of url: URL) throws(PlistError) -> String {
        guard url.isFileURL else { throw PlistError(.io(reason: "\(url) is not a file URL"), at: 0) }
        return url.path(percentEncoded: false)
    }
}
