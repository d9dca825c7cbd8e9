public import SystemPackage

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Plist {
    /// Reads a property list in any supported format, detected from its first bytes.
    /// - Throws: `PlistError`: `.emptyInput`, `.unknownFormat`, or the reader's error with its location.
    public init(bytes: Span<UInt8>, options: PlistReadOptions = .init()) throws(PlistError) {
        self = try Self.read(bytes: bytes, options: options).value
    }

    /// Reads a property list in any supported format, detected from its first bytes, and
    /// tells which format it was in (so that an edited value can be written back the same way).
    /// - Throws: `PlistError` naming the problem and its location.
    public static func read(bytes: Span<UInt8>, options: PlistReadOptions = .init()) throws(PlistError) -> (
        value: Plist, format: PlistFormat
    ) {
        try read(bytes: bytes, format: try Self.format(of: bytes), options: options)
    }

    /// Reads `bytes` in `format`, judged already from their first bytes (`PlistFormat.detect`).
    private static func read(bytes: Span<UInt8>, format: PlistFormat, options: PlistReadOptions) throws(PlistError)
        -> (value: Plist, format: PlistFormat)
    {
        switch format {
        case .binary: return (try Plist(binary: bytes, options: options), format)
        case .xml: return (try Plist(xml: bytes, options: options), format)
        case .openStep, .strings:
            // A lone JSON scalar (`12`, `true`, `"text"`) is JSON when it parses as JSON: that is
            // what `jsonBytes` writes for it, while OpenStep would read it as a string.
            if Self.mayBeJSONScalar(bytes), let value = try? Plist(json: bytes, options: options) {
                return (value, .json)
            }
            let (value, isStringsFile) = try Plist.readOpenStep(bytes, options: options)
            return (value, isStringsFile ? .strings : .openStep)
        case .json: return (try Plist(json: bytes, options: options), format)
        }
    }

    /// Whether the text starts like a JSON number, `true`, `false` or string (after white space).
    private static func mayBeJSONScalar(_ bytes: Span<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case 0x2D, 0x30...0x39, 0x74, 0x66, 0x22: return true
        default: return false
        }
    }

    /// Reads the property-list file at `path` and tells which format it was in. An empty file
    /// named `*.strings` is an empty table.
    ///
    /// The file is checked before it is read: a folder or a device other than a terminal is
    /// refused, a FIFO that no process writes to is empty (opening it does not wait), and the
    /// format is judged from the first bytes, so that a file that is no property list (a large
    /// file of zeros) is refused without being read. A file is read into memory only up to
    /// what the read limits allow a value to take (`.inputTooLarge`: see docs/SECURITY.md).
    /// - Throws: `PlistError` with `.io` when the file cannot be read, else as `read(bytes:)`.
    public static func read(contentsOf path: String, options: PlistReadOptions = .init()) throws(PlistError) -> (
        value: Plist, format: PlistFormat
    ) {
        let (value, format, _) = try read(
            try PlistInput(path: path), limit: PlistInput.limit(for: options), options: { _ in options })
        return (value, format)
    }

    /// Reads a property list from everything readable on the open file descriptor `fd` and
    /// tells which format it was in, checked as `read(contentsOf:options:)` checks a file.
    /// - Throws: `PlistError` with `.io` when reading fails, else as `read(bytes:)`.
    public static func read(fileDescriptor fd: Int32, options: PlistReadOptions = .init()) throws(PlistError) -> (
        value: Plist, format: PlistFormat
    ) {
        let (value, format, _) = try read(
            try PlistInput(fileDescriptor: fd, name: "-"), limit: PlistInput.limit(for: options),
            options: { _ in options })
        return (value, format)
    }

    /// Reads the property list in `input` whole, and tells which format it was in and the bytes
    /// read: the one whole read of an input, for the functions above and for plistconv. The
    /// format is the input's, judged once from its first bytes before the rest is read, so that
    /// a stream of zeros is refused unread. An empty file named `*.strings` is an empty table
    /// (other empty inputs are no property list).
    /// - Parameters:
    ///   - limit: The most bytes read into memory (`.inputTooLarge` past it, before allocating
    ///     for a regular file).
    ///   - options: The read options for the number of bytes read (plistconv lets content grow
    ///     with the input).
    /// - Throws: as `read(contentsOf:options:)`.
    package static func read(
        _ input: PlistInput, limit: Int, options: (_ inputSize: Int) -> PlistReadOptions
    ) throws(PlistError) -> (value: Plist, format: PlistFormat, bytes: Data) {
        if input.head.isEmpty, input.path.hasSuffix(".strings") { return (.dictionary(.init()), .strings, Data()) }
        let format = try input.format()
        let bytes = try input.contents(limit: limit)
        let (value, read) = try Self.read(bytes: bytes.span, format: format, options: options(bytes.count))
        return (value, read, bytes)
    }

    /// Reads a property list in any supported format, detected from its first bytes.
    /// - Throws: `PlistError` naming the problem and its location.
    public init(bytes: [UInt8], options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(bytes: bytes.span, options: options)
    }

    /// Reads a property list in any supported format, detected from its first bytes.
    /// - Throws: `PlistError` naming the problem and its location.
    public init(bytes data: Data, options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(bytes: data.span, options: options)
    }

    /// Reads the property-list file at `path`, in any supported format (as `read(contentsOf:)`).
    /// - Throws: `PlistError` with `.io` when the file cannot be read, else as `init(bytes:)`.
    public init(contentsOf path: String, options: PlistReadOptions = .init()) throws(PlistError) {
        self = try Self.read(contentsOf: path, options: options).value
    }

    /// The format of `bytes`, or the error that explains why there is none.
    /// - Throws: `PlistError` with `.emptyInput` or `.unknownFormat`.
    public static func format(of bytes: Span<UInt8>) throws(PlistError) -> PlistFormat {
        guard !bytes.isEmpty else { throw PlistError(.emptyInput, at: 0) }
        guard let format = PlistFormat.detect(bytes) else { throw PlistError(.unknownFormat, at: 0) }
        return format
    }

    /// The value encoded in `format`.
    /// - Throws: `PlistError` from the writer (such as `.tooDeep`, or `.unrepresentable` for a
    ///   value the format cannot hold).
    public func bytes(format: PlistFormat, options: PlistWriteOptions = .init()) throws(PlistError) -> [UInt8] {
        switch format {
        case .binary: try binaryBytes(options: options)
        case .xml: try xmlBytes(options: options)
        case .openStep: try openStepBytes(options: options)
        case .strings: try stringsBytes(options: options)
        case .json: try jsonBytes(options: options)
        }
    }

    /// Writes the value in `format` to the file at `path`, atomically: the old file stays
    /// intact unless the new one was written completely, and keeps its permissions. Devices,
    /// FIFOs and descriptors' names are written in place, as `PlistFile.write(_:to:)` says.
    /// - Throws: `PlistError` from encoding, or `.io` when the file cannot be written.
    public func write(to path: String, format: PlistFormat, options: PlistWriteOptions = .init()) throws(PlistError) {
        try FileIO.writeOutput(try bytes(format: format, options: options), to: path)
    }
}

extension Plist {
    /// Reads a property list, in any supported format, from everything readable on the open
    /// file descriptor `fd` (standard input is 0).
    /// - Throws: `PlistError` with `.io` when reading fails, else as `init(bytes:)`.
    public init(fileDescriptor fd: Int32, options: PlistReadOptions = .init()) throws(PlistError) {
        self = try Self.read(fileDescriptor: fd, options: options).value
    }

    /// Writes the value in `format` to the open file descriptor `fd` (standard output is 1).
    /// - Throws: `PlistError` from encoding, or `.io` when writing fails.
    public func write(toFileDescriptor fd: Int32, format: PlistFormat, options: PlistWriteOptions = .init())
        throws(PlistError)
    {
        try FileIO.writeAll(try bytes(format: format, options: options), to: FileDescriptor(rawValue: fd))
    }
}

extension Plist {
    /// Reads the property-list file at `url` and tells which format
    /// it was in.
    /// - Throws: `PlistError` with `.io` when `url` is not a file URL or the file cannot be
    ///   read, else as `read(bytes:)`.
    public static func read(contentsOf url: URL, options: PlistReadOptions = .init()) throws(PlistError) -> (
        value: Plist, format: PlistFormat
    ) {
        try read(contentsOf: try FileIO.path(of: url), options: options)
    }

    /// Reads the property-list file at `path` and tells which format it was in. An empty file
    /// named `*.strings` is an empty table.
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
