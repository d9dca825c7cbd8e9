import ArgumentParser
import PlistKit

/// `plistconv [convert] -f FORMAT IN [OUT]`: rewrites a property list in another format.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a property list to another format (the default command).",
        discussion: "Outputs are replaced atomically: a failed conversion leaves the old file untouched."
    )

    @Option(name: [.short, .customLong("format")], help: "Output format.")
    var format: OutputFormat

    @Argument(help: "Input file, or - for standard input.")
    var input: String

    @Argument(help: "Output file, or - for standard output (default: convert the input file in place).")
    var output: String?

    func run() throws {
        let destination = output ?? input
        let plist = try Terminal.reporting(input, isOutput: false) { () throws(PlistError) in
            try Terminal.readPlist(input)
        }
        try Terminal.reporting(destination, isOutput: true) { () throws(PlistError) in
            try Terminal.writePlist(plist, format: format.plistFormat, to: destination)
        }
    }
}

/// Output format names, including plutil's (`binary1`, `xml1`).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case binary, binary1, xml, xml1, openstep

    var plistFormat: PlistFormat {
        switch self {
        case .binary, .binary1: .binary
        case .xml, .xml1: .xml
        case .openstep: .openStep
        }
    }
}
