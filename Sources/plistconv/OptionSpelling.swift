import ArgumentParser
import PlistKit

/// The spellings of the options that more than one command or parser reads, each written once:
/// `QuickCommandLine` matches words against them, and the commands take their ArgumentParser
/// names from them (`QuickCommandLineTests` checks that the two parsers agree). The options and
/// the argument that several commands share are declared once too, below, as option groups.
struct OptionSpelling: Sendable {
    /// The one-letter name (`-f`), if any.
    let short: Character?
    /// The long name without its dashes (`format` for `--format`), if any.
    let long: String?
    /// Whether the long name is also spelled with one dash, as plutil spells it (`-header`).
    var plutilDash = false

    static let format = Self(short: "f", long: "format")
    static let output = Self(short: "o", long: "output")
    static let `extension` = Self(short: "e", long: "extension")
    static let readable = Self(short: "r", long: "readable")
    static let stringify = Self(short: nil, long: "stringify")
    static let stream = Self(short: nil, long: "stream")
    static let silent = Self(short: "s", long: nil)
    static let quick = Self(short: nil, long: "quick")
    static let expect = Self(short: nil, long: "expect")
    static let header = Self(short: nil, long: "header", plutilDash: true)
    static let append = Self(short: nil, long: "append", plutilDash: true)

    /// The names ArgumentParser declares.
    var names: NameSpecification {
        var names: [NameSpecification.Element] = []
        if let short { names.append(.customShort(short)) }
        if let long, plutilDash { names.append(.customLong(long, withSingleDash: true)) }
        if let long { names.append(.customLong(long)) }
        return NameSpecification(names)
    }

    /// Whether `word` is one of the spellings (`-f` or `--format`).
    func matches(_ word: String) -> Bool {
        if let short, word == "-\(short)" { return true }
        if let long, word == "--\(long)" || plutilDash && word == "-\(long)" { return true }
        return false
    }

    /// The spelling used in messages and to count repeats: the long one if there is one.
    var name: String { long.map { "--\($0)" } ?? "-\(short!)" }
}

extension NameSpecification {
    /// plutil's spelling of a value's type, `-NAME`, and `--NAME` (`-integer 5`: `NewValue`).
    static func valueType(_ name: String) -> Self { OptionSpelling(short: nil, long: name, plutilDash: true).names }
}

/// `-o/--output FILE`, where a command writes its result.
struct OutputOption: ParsableArguments {
    @Option(name: OptionSpelling.output.names, help: "Write the result here (- for standard output); one input only.")
    var output: String?
}

/// `-r/--readable`, for JSON output.
struct ReadableOption: ParsableArguments {
    @Flag(name: OptionSpelling.readable.names, help: "JSON: indented, with sorted keys.")
    var readable = false
}

/// `--expect TYPE` (plutil's `-expect`): the type the value at the key path must have.
struct ExpectOption: ParsableArguments {
    @Option(name: OptionSpelling.expect.names, help: "Fail unless the value has this type (\(PlistType.helpList)).")
    var expect: PlistType?
}

/// The key path that `extract`, `type` and the edits take first.
struct KeyPathArgument: ParsableArguments {
    @Argument(help: "Key path: keys separated by dots (\\. is a dot in a key), array indexes from 0.")
    var keyPath: String

    /// The key path read (`PlistKeyPath(parsing:)`).
    var path: PlistKeyPath { PlistKeyPath(parsing: keyPath) }
}
