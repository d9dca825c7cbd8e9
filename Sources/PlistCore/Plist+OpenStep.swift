#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Plist {
    /// Reads an OpenStep (old-style ASCII) property list, with the GNUstep extensions
    /// (`<*I12>`, `<*R1.5>`, `<*BY>`, `<*D...>`, `<[base64]>`), or a `.strings` file (a dictionary
    /// without its outer braces). The text may be UTF-8 (with or without a byte-order mark),
    /// UTF-16 or UTF-32. Every plain scalar is a string, as in CoreFoundation.
    /// - Throws: `PlistError` naming the problem and its line and column.
    public init(openStep bytes: [UInt8], options: PlistReadOptions = .init()) throws(PlistError) {
        self = try OpenStepReader.read(bytes, options: options)
    }

    /// Reads an OpenStep property list, a GNUstep property list or a `.strings` file.
    /// - Throws: `PlistError` naming the problem and its line and column.
    public init(openStep bytes: Span<UInt8>, options: PlistReadOptions = .init()) throws(PlistError) {
        var copy: [UInt8] = []
        copy.reserveCapacity(bytes.count)
        for index in bytes.indices { copy.append(bytes[index]) }
        self = try OpenStepReader.read(copy, options: options)
    }

    /// Reads an OpenStep property list, a GNUstep property list or a `.strings` file.
    /// - Throws: `PlistError` naming the problem and its line and column.
    public init(openStep data: Data, options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(openStep: [UInt8](data), options: options)
    }
}
