extension Plist {
    /// Swift source declaring `let name = <the value as a literal>`, as plutil's `-convert swift`
    /// writes it but with exact numbers, and with dates and data (see `SourceCode`). `fileName`
    /// goes in the comment at the top.
    /// - Throws: `PlistError` with `.tooDeep` past `options.maxDepth`, `.outputTooLarge` past
    ///   `options.maxOutputBytes`.
    public func swiftSource(name: String, fileName: String, options: PlistWriteOptions = .init()) throws(PlistError)
        -> [UInt8]
    {
        try SourceCode.swift(self, name: name, fileName: fileName, options: options)
    }

    /// Objective-C source declaring `NSDictionary * const name = @{...};` (or the value's own
    /// type), as plutil's `-convert objc` writes it.
    /// - Throws: `PlistError` with `.unrepresentable` naming the key path of a date, data, UID or
    ///   non-finite real, which Objective-C literals cannot hold; `.tooDeep` past
    ///   `options.maxDepth`, `.outputTooLarge` past `options.maxOutputBytes`.
    public func objcSource(name: String, fileName: String, options: PlistWriteOptions = .init()) throws(PlistError)
        -> [UInt8]
    {
        try SourceCode.objc(self, name: name, fileName: fileName, options: options)
    }

    /// The Objective-C header for `objcSource`: `extern NSDictionary * const name;`.
    public func objcHeader(name: String, fileName: String) -> [UInt8] {
        SourceCode.objcHeader(self, name: name, fileName: fileName)
    }

    /// A Swift and Objective-C identifier made from a file name (`Info.plist` gives `Info`,
    /// `my-file.plist` gives `my_file`, `1.plist` gives `_1`).
    package static func sourceIdentifier(fromFileName fileName: String) -> String {
        SourceCode.identifier(fromFileName: fileName)
    }
}
