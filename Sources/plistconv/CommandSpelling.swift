/// Turns plutil's and libplist's spellings of a command line into plistconv's own (for the
/// routes that read it so: `PlistConv.routes`).
enum CommandSpelling {
    /// A command line in plistconv's spelling: its words, and what a conversion's files mean,
    /// which the spelling without a command word decides (`plistconv -f FORMAT IN OUT`,
    /// `plistutil -i IN -o OUT`) and no option of `convert` spells.
    struct Line: Equatable {
        var words: [String]
        var conversion: Conversion.Spelling = .convert
    }

    /// The command words: the commands' names (`PlistConv.configuration`), and help. Written
    /// out, not read from every command's configuration, which builds them all at start-up;
    /// `CommandSpellingTests` checks the two agree.
    static let verbs: [String] = [
        "convert", "lint", "print", "extract", "type", "insert", "replace", "remove", "create", "archive-print",
        "defaults", "diff", "merge", "help",
    ]

    /// plutil's single-dash command (`-lint`) as plistconv's verb, or nil. (`-convert FMT` also
    /// moves FMT behind `-f`: `normalized(_:)`.) A `switch`, not a dictionary, whose first use
    /// costs a scan of the program's type metadata at start-up.
    private static func plutilVerb(_ word: String) -> String? {
        switch word {
        case "-lint": "lint"
        case "-p": "print"
        case "-extract": "extract"
        case "-type": "type"
        case "-insert": "insert"
        case "-replace": "replace"
        case "-remove": "remove"
        case "-create": "create"
        default: nil
        }
    }

    /// plutil's single-dash option that plistconv spells with two dashes, or `word` itself.
    private static func option(_ word: String) -> String {
        switch word {
        case "-expect": "--expect"
        case "-help": "--help"
        default: word
        }
    }

    /// `arguments` (without the program name) in plistconv's spelling.
    static func normalized(_ arguments: [String]) -> Line {
        guard let first = arguments.first else { return Line(words: arguments) }
        var rest = Array(arguments.dropFirst())
        if first == "-convert", let format = rest.first {
            rest.removeFirst()
            return Line(words: ["convert", "-f", format] + options(rest))
        }
        if let verb = plutilVerb(first) { return Line(words: [verb] + options(rest)) }
        if first == "-help" || first == "-h" { return Line(words: ["--help"]) }
        if arguments.prefix(while: { $0 != "--" }).contains("-i") { return libplist(arguments) }
        if !first.hasPrefix("-") && verbs.contains(first)
            || first.hasPrefix("--") && !arguments.contains("-f") && first != "--format"
        {
            return Line(words: [first] + options(rest))
        }
        // No command word: `plistconv -f FORMAT IN [OUT]`.
        return Line(words: ["convert"] + options(arguments), conversion: .inputOutput)
    }

    /// plutil's single-dash options renamed, up to `--`.
    private static func options(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return result + arguments[index...] }
            result.append(option(argument))
        }
        return result
    }

    /// libplist's `plistutil -i IN [-o OUT] [-f FORMAT]` as `convert`.
    private static func libplist(_ arguments: [String]) -> Line {
        var result = ["convert"]
        var input: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-i" || argument == "--infile", index + 1 < arguments.count {
                input.append(arguments[index + 1])
                index += 2
            } else if argument == "--outfile" || argument == "--format" {
                result.append(argument == "--outfile" ? "-o" : "-f")
                index += 1
            } else {
                result.append(argument)
                index += 1
            }
        }
        return Line(words: result + ["--"] + input, conversion: .libplist)
    }
}
