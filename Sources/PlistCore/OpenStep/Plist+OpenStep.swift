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
        self = try OpenStepReader.read(bytes, options: options).value
    }

    /// Reads an OpenStep property list, a GNUstep property list or a `.strings` file.
    /// - Throws: `PlistError` naming the problem and its line and column.
    public init(openStep bytes: Span<UInt8>, options: PlistReadOptions = .init()) throws(PlistError) {
        var copy: [UInt8] = []
        copy.reserveCapacity(bytes.count)
        for index in bytes.indices { copy.append(bytes[index]) }
        self = try OpenStepReader.read(copy, options: options).value
    }

    /// Reads an OpenStep property list, a GNUstep property list or a `.strings` file.
    /// - Throws: `PlistError` naming the problem and its line and column.
    public init(openStep data: Data, options: PlistReadOptions = .init()) throws(PlistError) {
        try self.init(openStep: [UInt8](data), options: options)
    }
}

extension Plist {
    /// Reads OpenStep text as `init(openStep:)` does, and tells whether it was a `.strings` file
    /// (a dictionary without its outer braces), so that it can be written back the same way.
    /// - Throws: `PlistError` naming the problem and its line and column.
    package static func readOpenStep(_ bytes: Span<UInt8>, options: PlistReadOptions = .init()) throws(PlistError) -> (
        value: Plist, isStringsFile: Bool
    ) {
        var copy: [UInt8] = []
        copy.reserveCapacity(bytes.count)
        for index in bytes.indices { copy.append(bytes[index]) }
        return try OpenStepReader.read(copy, options: options)
    }

    /// The value as OpenStep text in UTF-8, laid out as Xcode writes it. Integers, reals,
    /// Booleans, dates and UIDs are written as `options.openStepValues` says (by default they are
    /// an error: plain OpenStep cannot hold them).
    /// - Throws: `PlistError` with `.unrepresentable` naming the key path of a value OpenStep
    ///   cannot hold, `.tooDeep` past `options.maxDepth`, `.outputTooLarge` past
    ///   `options.maxOutputBytes`.
    public func openStepBytes(options: PlistWriteOptions = .init()) throws(PlistError) -> [UInt8] {
        try OpenStepWriter.write(self, options: options)
    }

    /// The value as a `.strings` file in UTF-8: one `"key" = "value";` line per entry. The value
    /// must be a dictionary of strings (or of scalars, with `options.openStepValues` `.strings`).
    /// - Throws: `PlistError` with `.unrepresentable` naming the key path of the first value a
    ///   `.strings` file cannot hold, `.outputTooLarge` past `options.maxOutputBytes`.
    public func stringsBytes(options: PlistWriteOptions = .init()) throws(PlistError) -> [UInt8] {
        try OpenStepWriter.writeStrings(self, options: options)
    }

    /// The value as an Xcode project file (`project.pbxproj`), laid out as Xcode writes it:
    /// `// !$*UTF8*$!`, objects in sorted `/* Begin <isa> section */` blocks, `/* name */`
    /// comments after object IDs. The project's configuration-list comment names the project as
    /// `original` does, else as `projectName` (the `.xcodeproj` folder's name). `original`, the
    /// file as it was before an edit, also gives the comment and line of each object of a kind
    /// Xcode's rules here do not know, which are then kept rather than guessed.
    /// - Throws: `PlistError` with `.unrepresentable` when the value has no `objects` dictionary
    ///   or holds a value other than strings, arrays and dictionaries, `.tooDeep` past
    ///   `options.maxDepth`, `.outputTooLarge` past `options.maxOutputBytes`.
    public func pbxprojBytes(
        projectName: String, original: [UInt8]? = nil, options: PlistWriteOptions = .init()
    ) throws(PlistError) -> [UInt8] {
        let layout = original.map(PbxprojOriginal.init) ?? PbxprojOriginal()
        return try PbxprojWriter.write(
            self, projectName: layout.projectName ?? projectName, original: layout, options: options)
    }
}
