public import ArgumentParser
import PlistKit

/// `plistconv extract KEYPATH FORMAT FILE` (plutil's `-extract`): prints the value at a key path.
struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "extract",
        abstract: "Print the value at a key path, as a property list or raw (plutil -extract).",
        discussion: """
            FORMAT is an output format or raw: raw prints strings as they are, numbers exactly, \
            Booleans as true/false, dates in ISO 8601, data in base64, an array's count and a \
            dictionary's keys (one per line). The output goes to standard output unless -o names a \
            file (unlike plutil, the input is never overwritten).
            """
    )

    @OptionGroup var keyPath: KeyPathArgument

    @Argument(help: "raw, or an output format: \(OutputFormat.helpList).")
    var format: ExtractFormat

    @Argument(help: "The property-list file (- for standard input).")
    var file: String

    @OptionGroup var output: OutputOption

    @Flag(name: .short, help: "raw: no newline after the value.")
    var noNewline = false

    @OptionGroup var expected: ExpectOption

    @OptionGroup var json: ReadableOption

    func run() throws {
        // A binary file is read lazily: only the value at the key path.
        let extracted = try Terminal.reporting(file, isOutput: false) { () throws(PlistError) -> Extracted in
            let source = try KeyPathSource.open(file)
            let path = keyPath.path
            try expected.expect?.check(try source.type(at: path), at: keyPath.keyPath)
            switch format {
            case .raw: return .text(try source.rawText(at: path))
            case .plist: return .value(try source.value(at: path))
            }
        }
        let output = output.output ?? "-"
        try Terminal.reporting(output, isOutput: true) { () throws(PlistError) in
            let bytes: [UInt8]
            switch (extracted, format) {
            case (.text(let text), _): bytes = Array((text + (noNewline ? "" : "\n")).utf8)
            case (.value(let value), .plist(let format)):
                bytes = try format.encode(value, file: file, readable: json.readable)
            case (.value(let value), .raw): bytes = Array((Scalar.text(of: value) + (noNewline ? "" : "\n")).utf8)
            }
            try Terminal.output(bytes, to: output)
        }
    }

    /// What was read: raw text, or the value to encode.
    private enum Extracted {
        case text(String)
        case value(Plist)
    }
}

/// `plistconv type KEYPATH FILE` (plutil's `-type`): prints the type of the value at a key path.
struct TypeOf: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "type",
        abstract: "Print the type of the value at a key path (plutil -type).",
        discussion: "Types: \(PlistType.helpList)."
    )

    @OptionGroup var keyPath: KeyPathArgument

    @Argument(help: "The property-list file (- for standard input).")
    var file: String

    @OptionGroup var expected: ExpectOption

    func run() throws {
        // A binary file is read lazily: a container's contents are not read.
        let typeName = try Terminal.reporting(file, isOutput: false) { () throws(PlistError) in
            let type = try KeyPathSource.open(file).type(at: keyPath.path)
            try expected.expect?.check(type, at: keyPath.keyPath)
            return type.rawValue
        }
        try Terminal.reporting("-", isOutput: true) { () throws(PlistError) in
            try Terminal.writeOutput(typeName + "\n")
        }
    }
}

/// What `extract` writes: a property list in a format, or the value itself.
enum ExtractFormat: ExpressibleByArgument {
    case raw
    case plist(OutputFormat)

    init?(argument: String) {
        if argument == "raw" {
            self = .raw
        } else if let format = OutputFormat(argument: argument) {
            self = .plist(format)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ["raw"] + OutputFormat.allValueStrings }
}

/// `--expect TYPE` takes plutil's type names (`PlistType`'s raw values).
extension PlistType: ExpressibleByArgument {
    static var helpList: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Throws unless `type` is this type.
    func check(_ type: PlistType, at keyPath: String) throws(PlistError) {
        guard type == self else {
            throw PlistError(.unexpectedType(keyPath: keyPath, expected: rawValue, found: type.rawValue), at: 0)
        }
    }
}
