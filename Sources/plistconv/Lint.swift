import ArgumentParser
import PlistKit

/// `plistconv lint FILE...`: checks that each file is a valid property list.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "lint",
        abstract: "Check that files are valid property lists.",
        discussion: """
            Prints "FILE: OK" for each valid file; exits 1 if any file is not valid. With --quick, a \
            binary file is checked without building its values (the same checks, in memory that \
            follows its number of objects, not its values); other files are read whole.
            """
    )

    @Flag(name: OptionSpelling.silent.names, help: "Print nothing for valid files.")
    var silent = false

    @Flag(name: OptionSpelling.quick.names, help: "Binary files: check without building the values (bounded memory).")
    var quick = false

    @Argument(help: "Files to check, or - for standard input.")
    var files: [String]

    func run() throws {
        if !Linting(files: files, silent: silent, quick: quick).run() { throw ExitCode.failure }
    }
}

/// What `plistconv lint` does, once its command line is parsed (by `Lint` or `QuickCommandLine`).
struct Linting: Equatable {
    var files: [String]
    var silent = false
    var quick = false

    /// Checks each file, printing "FILE: OK" or its error; whether all are valid.
    func run() -> Bool {
        var failed = false
        for file in files {
            let name = Terminal.displayName(file, isOutput: false)
            if let error = check(file) {
                Terminal.report(error, file: name)
                failed = true
            } else if !silent {
                print("\(name): OK".escapingControlCharacters)
            }
        }
        return !failed
    }

    /// Why the file at `path` (`-` is standard input) is not a valid property list, or nil.
    func check(_ path: String) -> PlistError? {
        do throws(PlistError) {
            let input = try PlistInput.opening(path)
            if quick, (try? input.format()) == .binary {
                // The whole-file reader's walk and checks, without the values.
                let options = Terminal.readOptionsWithoutValues(for: input)
                try BinaryPlistFile(input: input, options: options, maxIndexedEntries: 0).check()
            } else {
                _ = try Terminal.read(input)
            }
            return nil
        } catch {
            return error
        }
    }
}
