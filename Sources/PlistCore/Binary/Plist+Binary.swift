#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Plist {
    /// Reads a binary property list (`bplist00`).
    /// - Throws: `PlistError` naming the problem (bad magic, truncation, an offset or reference
    ///   out of range, an invalid object, a cycle, a limit exceeded, ...) and its byte offset.
    public init(binary bytes: Span<UInt8>, options: PlistReadOptions = .init()) throws(PlistError) {
        self = try BinaryReader.read(bytes, options: options)
    }

    /// Reads a binary property list (`bplist00`).
    /// - Throws: `PlistError` naming the problem and its byte offset.
    public init(binary bytes: [UInt8], options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(binary: bytes.span, options: options)
    }

    /// Reads a binary property list (`bplist00`).
    /// - Throws: `PlistError` naming the problem and its byte offset.
    public init(binary data: Data, options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(binary: data.span, options: options)
    }

    /// The value as a binary property list (`bplist00`), with every repeated scalar stored once.
    /// - Throws: `PlistError` with `.tooDeep` when containers nest deeper than `options.maxDepth`.
    public func binaryBytes(options: PlistWriteOptions = .init()) throws(PlistError) -> [UInt8] {
        try BinaryWriter.write(self, options: options)
    }
}
