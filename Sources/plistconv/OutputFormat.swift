import ArgumentParser
import PlistKit

/// The formats `plistconv` writes, by their names on the command line (plutil's `binary1` and
/// `xml1`, and libplist's `bin`, are accepted too).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case binary, xml, openstep, json, swift, objc

    init?(argument: String) {
        switch argument {
        case "binary", "binary1", "bin": self = .binary
        case "xml", "xml1": self = .xml
        case "openstep", "ascii": self = .openstep
        default: self.init(rawValue: argument)
        }
    }

    static var allValueStrings: [String] { ["binary", "binary1", "xml", "xml1", "openstep", "json", "swift", "objc"] }

    /// The names for help texts.
    static var helpList: String { allValueStrings.joined(separator: ", ") }

    /// The format a property list read in `format` is written back in.
    init(_ format: PlistFormat) {
        switch format {
        case .binary: self = .binary
        case .xml: self = .xml
        case .openStep: self = .openstep
        }
    }

    /// The bytes of `plist` in this format; `name` names the value in source-code formats.
    func encode(_ plist: Plist, name: String, readable: Bool = false) throws(PlistError) -> [UInt8] {
        switch self {
        case .binary: try plist.bytes(format: .binary)
        case .xml: try plist.bytes(format: .xml)
        case .openstep: try plist.bytes(format: .openStep)
        case .json, .swift, .objc: throw PlistError(.unsupportedFormat(.openStep, writing: true), at: 0)
        }
    }
}
