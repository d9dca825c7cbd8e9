import ArgumentParser
import PlistKit

/// `plistconv extract KEYPATH FORMAT FILE` (plutil's `-extract`): prints the value at a key path.
struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print the value at a key path, as a property list or raw (plutil -extract).",
        discussion: """
            FORMAT is an output format or raw: raw prints strings as they are, numbers exactly, \
            Booleans as true/false, dates in ISO 8601, data in base64, an array's count and a \
            dictionary's keys (one per line). The output goes to standard output unless -o names a \
            file (unlike plutil, the input is never overwritten).
            """
    )

    @Argument(help: "Key path: keys separated by dots (\\. is a dot in a key), array indexes from 0.")
    var keyPath: String

    @Argument(help: "raw, or an output format: \(OutputFormat.helpList).")
    var format: ExtractFormat

    @Argument(help: "The property-list file (- for standard input).")
    var file: String

    @Option(name: [.short, .customLong("output")], help: "Output file (default: standard output).")
    var output = "-"

    @Flag(name: .short, help: "raw: no newline after the value.")
    var noNewline = false

    @Option(help: "Fail unless the value has this type (\(ValueType.helpList)).")
    var expect: ValueType?

    @Flag(name: [.short, .customLong("readable")], help: "JSON: indented, with sorted keys.")
    var readable = false

    func run() throws {
        let value = try Terminal.reporting(file, isOutput: false) { () throws(PlistError) in
            let value = try Terminal.read(file).value.value(at: PlistKeyPath(parsing: keyPath))
            try expect?.check(value, at: keyPath)
            return value
        }
        try Terminal.reporting(output, isOutput: true) { () throws(PlistError) in
            let bytes: [UInt8]
            switch format {
            case .raw: bytes = Array((Scalar.text(of: value) + (noNewline ? "" : "\n")).utf8)
            case .plist(let format):
                bytes = try format.encode(value, file: file, readable: readable)
            }
            try Terminal.output(bytes, to: output)
        }
    }
}

/// `plistconv type KEYPATH FILE` (plutil's `-type`): prints the type of the value at a key path.
struct TypeOf: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "type",
        abstract: "Print the type of the value at a key path (plutil -type).",
        discussion: "Types: \(ValueType.helpList)."
    )

    @Argument(help: "Key path: keys separated by dots (\\. is a dot in a key), array indexes from 0.")
    var keyPath: String

    @Argument(help: "The property-list file (- for standard input).")
    var file: String

    @Option(help: "Fail unless the value has this type.")
    var expect: ValueType?

    func run() throws {
        let value = try Terminal.reporting(file, isOutput: false) { () throws(PlistError) in
            let value = try Terminal.read(file).value.value(at: PlistKeyPath(parsing: keyPath))
            try expect?.check(value, at: keyPath)
            return value
        }
        try Terminal.reporting("-", isOutput: true) { () throws(PlistError) in
            try Terminal.writeOutput(value.typeName + "\n")
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

/// Value type names, as `type` prints them.
enum ValueType: String, ExpressibleByArgument, CaseIterable {
    case dictionary, array, string, integer, float, bool, date, data, uid

    static var helpList: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Throws unless `value` has this type.
    func check(_ value: Plist, at keyPath: String) throws(PlistError) {
        guard value.typeName == rawValue else {
            throw PlistError(.unexpectedType(keyPath: keyPath, expected: rawValue, found: value.typeName), at: 0)
        }
    }
}
