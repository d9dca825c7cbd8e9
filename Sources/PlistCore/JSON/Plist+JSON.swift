#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Plist {
    /// Reads JSON (RFC 8259) in UTF-8, UTF-16 or UTF-32, including the typed values `jsonBytes`
    /// writes (`{"$date": ...}`, `{"$data": ...}`, `{"$uid": ...}`, `{"$real": ...}`,
    /// `{"$dict": ...}`). Numbers without a fraction or exponent are integers when they fit;
    /// `null` is an error unless `options.jsonNull` gives its value.
    /// - Throws: `PlistError` naming the problem and its line and column.
    public init(json bytes: [UInt8], options: PlistReadOptions = .init()) throws(PlistError) {
        self = try JSONReader.read(bytes, options: options)
    }

    /// Reads JSON, as `init(json:options:)` for an array of bytes does.
    /// - Throws: `PlistError` naming the problem and its line and column.
    public init(json bytes: Span<UInt8>, options: PlistReadOptions = .init()) throws(PlistError) {
        var copy: [UInt8] = []
        copy.reserveCapacity(bytes.count)
        for index in bytes.indices { copy.append(bytes[index]) }
        self = try JSONReader.read(copy, options: options)
    }

    /// Reads JSON, as `init(json:options:)` for an array of bytes does.
    /// - Throws: `PlistError` naming the problem and its line and column.
    public init(json data: Data, options: PlistReadOptions = .init()) throws(PlistError) {
        self = try JSONReader.read([UInt8](data), options: options)
    }

    /// The value as JSON in UTF-8: compact, or indented with `options.indentsJSON`; keys sorted
    /// unless `options.sortsKeys` is false. Dates, data, UIDs and non-finite reals are written
    /// as `options.jsonValues` says: typed (the default; reads back exactly), lossy, or an error.
    /// - Throws: `PlistError` with `.unrepresentable` naming the key path of a value strict JSON
    ///   cannot hold, `.tooDeep` past `options.maxDepth`, `.outputTooLarge` past
    ///   `options.maxOutputBytes`.
    public func jsonBytes(options: PlistWriteOptions = .init()) throws(PlistError) -> [UInt8] {
        try JSONWriter.write(self, options: options)
    }
}
