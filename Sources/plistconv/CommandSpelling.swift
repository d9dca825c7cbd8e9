import ArgumentParser

/// Turns plutil's and libplist's spellings of a command line into plistconv's own (for the
/// routes that read it so: `PlistConv.routes`).
enum CommandSpelling {
    /// plutil's single-dash commands and the verbs they become (`-convert FMT` also moves FMT
    /// behind `-f`).
    private static let plutilVerbs = [
        "-lint": "lint", "-p": "print", "-extract": "extract", "-type": "type", "-insert": "insert",
        "-replace": "replace", "-remove": "remove", "-create": "create",
    ]
    /// The command words: the commands' names, and help.
    private static let verbs = Set(
        PlistConv.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
    /// plutil's single-dash options that plistconv spells with two dashes.
    private static let plutilOptions = ["-expect": "--expect", "-help": "--help"]

    /// `arguments` (without the program name) in plistconv's spelling.
    static func normalized(_ arguments: [String]) -> [String] {
        guard let first = arguments.first else { return arguments }
        var rest = Array(arguments.dropFirst())
        if first == "-convert", let format = rest.first {
            rest.removeFirst()
            return ["convert", "-f", format] + options(rest)
        }
        if let verb = plutilVerbs[first] { return [verb] + options(rest) }
        if first == "-help" || first == "-h" { return ["--help"] }
        if arguments.prefix(while: { $0 != "--" }).contains("-i") { return libplist(arguments) }
        // No verb starts with a dash: `-f FORMAT IN` does not build `verbs` (every command's
        // configuration), which is a tenth of a small file's conversion.
        if !first.hasPrefix("-") && verbs.contains(first)
            || first.hasPrefix("--") && !arguments.contains("-f") && first != "--format"
        {
            return [first] + options(rest)
        }
        // No command word: `plistconv -f FORMAT IN [OUT]`.
        return ["convert", "--input-output"] + options(arguments)
    }

    /// plutil's single-dash options renamed, up to `--`.
    private static func options(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return result + arguments[index...] }
            result.append(plutilOptions[argument] ?? argument)
        }
        return result
    }

    /// libplist's `plistutil -i IN [-o OUT] [-f FORMAT]` as `convert`.
    private static func libplist(_ arguments: [String]) -> [String] {
        var result = ["convert", "--libplist"]
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
        return result + ["--"] + input
    }
}
