import ArgumentParser
import PlistKit

/// The formats `plistconv` writes, by their names on the command line (plutil's `binary1` and
/// `xml1`, and libplist's `bin`, are accepted too).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// `openstep` fails on values plain OpenStep cannot hold (or makes them strings, with
    /// `--stringify`); `gnustep` writes those as GNUstep typed values, which read back exactly.
    case binary, xml, openstep, gnustep, strings, pbxproj, json, swift, objc

    init?(argument: String) {
        switch argument {
        case "binary", "binary1", "bin": self = .binary
        case "xml", "xml1": self = .xml
        case "openstep", "ascii": self = .openstep
        default: self.init(rawValue: argument)
        }
    }

    static var allValueStrings: [String] {
        ["binary", "binary1", "xml", "xml1", "openstep", "gnustep", "strings", "pbxproj", "json", "swift", "objc"]
    }

    /// The names for help texts.
    static var helpList: String { allValueStrings.joined(separator: ", ") }

    /// The format a property list read in `format` from `file` is written back in (OpenStep as
    /// GNUstep, which is the same text unless the value holds numbers, Booleans or dates; a
    /// `.pbxproj` file as Xcode lays it out).
    init(_ format: PlistFormat, file: String) {
        if format == .openStep, file.hasSuffix(".pbxproj") {
            self = .pbxproj
            return
        }
        switch format {
        case .binary: self = .binary
        case .xml: self = .xml
        case .openStep: self = .gnustep
        case .strings: self = .strings
        case .json: self = .json
        }
    }

    /// The bytes of `plist` in this format; source code names the value after `file` (the input).
    /// `original` is the file as read, for an edit that writes it back: an Xcode project keeps
    /// its name and the comments Xcode's rules do not derive; OpenStep and `.strings` text keep
    /// their comments, layout and encoding where the lines of the edit allow (`EditLayout`).
    /// OpenStep and `.strings` keep each dictionary's key order; `stringify` writes values they
    /// cannot hold as strings. JSON is compact with keys in their order, or indented with sorted
    /// keys when `readable`; `jsonValues` says what becomes of dates, data and UIDs.
    func encode(
        _ plist: Plist, file: String, readable: Bool = false, stringify: Bool = false,
        jsonValues: PlistWriteOptions.JSONValues = .typed, limits: PlistWriteOptions = .init(),
        original: [UInt8]? = nil
    ) throws(PlistError) -> [UInt8] {
        // `limits` gives the depth and output limits; each format sets the rest.
        var options = limits
        switch self {
        case .binary: return try plist.binaryBytes(options: options)
        case .xml: return try plist.xmlBytes(options: options)
        case .openstep, .gnustep, .strings:
            options.sortsKeys = false
            options.openStepValues = self == .gnustep ? .gnustep : stringify ? .strings : .strict
            let write = { (value: Plist) throws(PlistError) -> [UInt8] in
                try self == .strings ? value.stringsBytes(options: options) : value.openStepBytes(options: options)
            }
            let written = try write(plist)
            guard let original else { return written }
            return EditLayout.text(original: original, edited: plist, written: written, write: write)
        case .pbxproj:
            return try plist.pbxprojBytes(projectName: Self.projectName(file), original: original, options: options)
        case .json:
            options.sortsKeys = readable
            options.jsonValues = jsonValues
            options.indentsJSON = readable
            return try plist.jsonBytes(options: options)
        case .swift:
            return try plist.swiftSource(name: Self.identifier(file), fileName: Self.fileName(file), options: options)
        case .objc:
            return try plist.objcSource(name: Self.identifier(file), fileName: Self.fileName(file), options: options)
        }
    }

    /// What to do instead when `error`, from `encode`, is a value this format cannot hold.
    func hint(for error: PlistError, stringify: Bool) -> String? {
        guard case .unrepresentable(_, let type, _) = error.kind else { return nil }
        let isScalar = ["integer", "real", "bool", "date", "uid"].contains(type)
        switch self {
        case .openstep where !stringify && isScalar: return "-f gnustep keeps it, --stringify writes it as a string"
        case .strings where !stringify && isScalar: return "--stringify writes it as a string"
        case .xml: return "-f binary keeps it"
        case .json: return "--json-values typed keeps it"
        default: return nil
        }
    }

    /// The Objective-C header for `objc` output.
    static func objcHeader(_ plist: Plist, file: String) -> [UInt8] {
        plist.objcHeader(name: identifier(file), fileName: fileName(file))
    }

    /// `App` for `App.xcodeproj/project.pbxproj`, else the file's name without its extension.
    private static func projectName(_ file: String) -> String {
        let parts = file.split(separator: "/")
        if parts.count >= 2, parts[parts.count - 2].hasSuffix(".xcodeproj") {
            return String(parts[parts.count - 2].dropLast(".xcodeproj".count))
        }
        return file == "-" ? "Project" : identifierStem(parts.last.map(String.init) ?? file)
    }

    private static func identifierStem(_ name: String) -> String {
        name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
    }

    private static func fileName(_ file: String) -> String {
        file == "-" ? "standard input" : String(file.split(separator: "/").last ?? "")
    }

    private static func identifier(_ file: String) -> String {
        file == "-" ? "plist" : Plist.sourceIdentifier(fromFileName: file)
    }
}

/// `--json-values typed|lossy|strict`.
enum JSONValuesArgument: String, ExpressibleByArgument, CaseIterable {
    case typed, lossy, strict

    var values: PlistWriteOptions.JSONValues {
        switch self {
        case .typed: .typed
        case .lossy: .lossy
        case .strict: .strict
        }
    }
}
