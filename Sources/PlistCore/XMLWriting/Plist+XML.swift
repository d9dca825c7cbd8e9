extension Plist {
    /// The value as an XML property list, byte for byte what Foundation's
    /// `PropertyListSerialization` writes for it (dictionary keys sorted as CoreFoundation sorts
    /// them, unless `options.sortsKeys` is false). A UID is written as a `CF$UID` dictionary.
    /// - Throws: `PlistError` with `.tooDeep` when containers nest deeper than `options.maxDepth`,
    ///   `.outputTooLarge` when the document would pass `options.maxOutputBytes`.
    public func xmlBytes(options: PlistWriteOptions = .init()) throws(PlistError) -> [UInt8] {
        try XMLWriter.write(self, options: options)
    }
}
