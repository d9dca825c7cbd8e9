import PlistKit

/// An input in XML as another writer lays it out, for the XML and Codable reading benchmarks:
/// `<library>/read-xml/<name>` and `<library>/read-codable_xml/<name>`. The sorted inputs are
/// what CoreFoundation writes (keys in byte order); these are the same values in other key
/// orders, indentations and line endings.
package enum WriterStyle: String, CaseIterable, Sendable {
    /// `itunes-library` as Python's `plistlib` writes it with `sort_keys=False`: keys in
    /// insertion order, tab indentation.
    case plistlib
    /// `itunes-library` as libplist writes it: keys in the order of the dictionaries it holds,
    /// which for a binary file read in is CoreFoundation's hash order (here, every dictionary's
    /// keys in the order of a hash of their bytes), tab indentation.
    case libplist
    /// `itunes-library` in insertion order without indentation, with CRLF line endings and a
    /// comment before every dictionary.
    case flatCRLF = "flat-crlf"
    /// `small-info` as Xcode's Info.plist templates hold it: keys in the template's order (not
    /// sorted), tab indentation.
    case xcode

    /// The input whose values this style lays out.
    package var input: InputFile { self == .xcode ? .smallInfo : .itunesLibrary }

    /// The benchmark's name for the input: `itunes-library-plistlib`, ...
    package var name: String { "\(input.rawValue)-\(rawValue)" }

    /// The XML, built on first use.
    package var xml: [UInt8] {
        switch self {
        case .plistlib: Self.plistlibXML
        case .libplist: Self.libplistXML
        case .flatCRLF: Self.flatCRLFXML
        case .xcode: Self.xcodeXML
        }
    }

    private static let plistlibXML = checked(insertionOrder(InputFile.itunesLibrary.fixture.tree), .itunesLibrary)
    private static let libplistXML = checked(
        reordered(InputFile.itunesLibrary.fixture.tree) { $0.sorted { fnv1a($0) < fnv1a($1) } }, .itunesLibrary)
    private static let flatCRLFXML = checked(flatCRLF(plistlibXML), .itunesLibrary)
    private static let xcodeXML = checked(
        reordered(InputFile.smallInfo.fixture.tree) { keys in
            keys.sorted { (xcodeRank[$0] ?? xcodeOrder.count, $0) < (xcodeRank[$1] ?? xcodeOrder.count, $1) }
        }, .smallInfo)

    /// The XML of `tree` with its dictionaries' keys in the order they hold them.
    private static func insertionOrder(_ tree: Plist) -> [UInt8] {
        var options = PlistWriteOptions()
        options.sortsKeys = false
        return try! tree.xmlBytes(options: options)
    }

    /// The XML of `tree` with every dictionary's keys put in the order `order` gives them.
    private static func reordered(_ tree: Plist, _ order: ([String]) -> [String]) -> [UInt8] {
        func walk(_ value: Plist) -> Plist {
            switch value {
            case .dictionary(let entries):
                var result = PlistDictionary(minimumCapacity: entries.count)
                for key in order(Array(entries.keys)) { result[key] = walk(entries[key]!) }
                return .dictionary(result)
            case .array(let elements): return .array(elements.map(walk))
            default: return value
            }
        }
        return insertionOrder(walk(tree))
    }

    /// `xml` without the tabs that start its lines, each line ending in CRLF, and a comment
    /// line before every `<dict>`.
    private static func flatCRLF(_ xml: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(xml.count + xml.count / 8)
        for line in xml.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            let text = line.drop { $0 == 0x09 }
            if text.starts(with: "<dict>".utf8) { result += "<!-- entry -->\r\n".utf8 }
            result += text
            result += [0x0D, 0x0A]
        }
        return result
    }

    /// The 64-bit FNV-1a hash of `key`'s UTF-8 bytes.
    private static func fnv1a(_ key: String) -> UInt64 {
        key.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// The keys of Xcode's macOS app Info.plist template in its order; other keys follow them.
    private static let xcodeOrder = [
        "CFBundleDevelopmentRegion", "CFBundleExecutable", "CFBundleIconFile", "CFBundleIdentifier",
        "CFBundleInfoDictionaryVersion", "CFBundleName", "CFBundlePackageType", "CFBundleShortVersionString",
        "CFBundleVersion", "LSMinimumSystemVersion", "NSHumanReadableCopyright", "NSMainStoryboardFile",
        "NSPrincipalClass", "CFBundleDisplayName", "LSApplicationCategoryType", "CFBundleDocumentTypes",
        "UTExportedTypeDeclarations", "CFBundleURLTypes", "NSAppTransportSecurity",
        "ITSAppUsesNonExemptEncryption", "CFBundleTypeRole", "CFBundleTypeName", "LSItemContentTypes",
        "LSHandlerRank", "NSDocumentClass", "UTTypeIdentifier", "UTTypeDescription", "UTTypeConformsTo",
    ]
    private static let xcodeRank = Dictionary(uniqueKeysWithValues: xcodeOrder.enumerated().map { ($1, $0) })

    /// `xml`, checked to read back as `input`'s tree.
    private static func checked(_ xml: [UInt8], _ input: InputFile) -> [UInt8] {
        precondition(try! Plist(xml: xml) == input.fixture.tree, "the \(input.rawValue) XML reads as another value")
        return xml
    }
}
