#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The common command lines, parsed without ArgumentParser: `plistconv -f FORMAT IN [OUT]`,
/// `convert` with its everyday options, `lint`, and git's `diff --textconv FILE`.
///
/// Start-up is most of a small file's conversion, and ArgumentParser builds a command's arguments
/// by reflection, which costs more than the conversion itself. This parser takes only what it
/// fully understands and declines the rest (nil), which ArgumentParser then parses, reports or
/// explains; `QuickCommandLineTests` checks that whatever it accepts, ArgumentParser parses to the
/// same command.
enum QuickCommandLine {
    /// A parsed command line.
    enum Command: Equatable {
        case convert(Conversion)
        case lint(Linting)
        /// `diff --textconv FILE`.
        case textconv(String)

        /// Runs the command and exits: 0 if it succeeded, 1 if not (each failure on standard
        /// error), 2 for textconv, which exits as diff does.
        func runAndExit() -> Never {
            switch self {
            case .convert(let conversion): exit(conversion.run() ? EXIT_SUCCESS : EXIT_FAILURE)
            case .lint(let linting): exit(linting.run() ? EXIT_SUCCESS : EXIT_FAILURE)
            case .textconv(let file): exit(Diff.textconv(file) ? EXIT_SUCCESS : 2)
            }
        }
    }

    /// The command line in plistconv's own spelling (`CommandSpelling.normalized`), or nil.
    static func parse(_ line: CommandSpelling.Line) -> Command? {
        guard let verb = line.words.first else { return nil }
        var words = Words(line.words.dropFirst())
        switch verb {
        case "convert": return convert(&words, line.conversion)
        case "lint": return lint(&words)
        case "diff": return textconv(&words)
        default: return nil
        }
    }

    /// `diff --textconv FILE`, as git runs it.
    private static func textconv(_ words: inout Words) -> Command? {
        guard case .option("--textconv") = words.next(), case .file(let file) = words.next(), words.next() == nil
        else { return nil }
        return .textconv(file)
    }

    private static func convert(_ words: inout Words, _ spelling: Conversion.Spelling) -> Command? {
        var conversion = Conversion(files: [], format: nil)
        while let word = words.next() {
            switch word {
            case .file(let file):
                conversion.files.append(file)
            case .option(let option):
                if OptionSpelling.format.matches(option) {
                    guard let value = words.value(for: .format), let format = OutputFormat(argument: value) else {
                        return nil
                    }
                    conversion.format = format
                } else if OptionSpelling.output.matches(option) {
                    guard let value = words.value(for: .output) else { return nil }
                    conversion.output = value
                } else if OptionSpelling.extension.matches(option) {
                    guard let value = words.value(for: .extension) else { return nil }
                    conversion.extension = value
                } else if OptionSpelling.readable.matches(option), words.once(.readable) {
                    conversion.readable = true
                } else if OptionSpelling.stringify.matches(option), words.once(.stringify) {
                    conversion.stringify = true
                } else if OptionSpelling.stream.matches(option), words.once(.stream) {
                    conversion.stream = true
                } else if OptionSpelling.silent.matches(option), words.once(.silent) {
                    // plutil's "print nothing but errors", which a conversion does anyway.
                } else {
                    return nil
                }
            }
        }
        guard !conversion.files.isEmpty, (try? conversion.resolve(spelling)) != nil else { return nil }
        return .convert(conversion)
    }

    private static func lint(_ words: inout Words) -> Command? {
        var linting = Linting(files: [])
        while let word = words.next() {
            switch word {
            case .file(let file):
                linting.files.append(file)
            case .option(let option) where OptionSpelling.silent.matches(option) && words.once(.silent):
                linting.silent = true
            case .option(let option) where OptionSpelling.quick.matches(option) && words.once(.quick):
                linting.quick = true
            case .option:
                return nil
            }
        }
        return linting.files.isEmpty ? nil : .lint(linting)
    }

    /// A word of the command line: a file (`-`, a word not starting with `-`, or any word after
    /// `--`), or an option.
    private enum Word {
        case file(String)
        case option(String)
    }

    /// The words after the command's, read one at a time.
    private struct Words {
        private var words: ArraySlice<String>
        private var seen: Set<String> = []
        /// Past `--`: every word is a file.
        private var filesOnly = false

        init(_ words: ArraySlice<String>) { self.words = words }

        mutating func next() -> Word? {
            guard let word = words.popFirst() else { return nil }
            if filesOnly || word == "-" || !word.hasPrefix("-") { return .file(word) }
            if word == "--" {
                filesOnly = true
                return next()
            }
            return .option(word)
        }

        /// Whether `option` is given for the first time (a repeat is left to ArgumentParser).
        mutating func once(_ option: OptionSpelling) -> Bool {
            seen.insert(option.name).inserted
        }

        /// The value after `option`: nil if it is repeated or the value is missing or looks like
        /// an option.
        mutating func value(for option: OptionSpelling) -> String? {
            guard once(option), let value = words.popFirst(), value == "-" || !value.hasPrefix("-") else { return nil }
            return value
        }
    }
}
