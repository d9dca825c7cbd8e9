import ArgumentParser
import PlistKit

/// `plistconv lint FILE...`: checks that each file is a valid property list.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint", _superCommandName: PlistConv.name,
        abstract: "Check that files are valid property lists.",
        discussion: """
            Prints "FILE: OK" for each valid file; exits 1 if any file is not valid. With --quick, a \
            binary file is checked as it is read, without building its values, in memory bounded by \
            its depth and widest dictionary (other files are read whole).
            """
    )

    @Flag(name: .short, help: "Print nothing for valid files.")
    var silent = false

    @Flag(help: "Binary files: check without building the values (bounded memory).")
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
            do throws(PlistError) {
                if quick, file != "-", let binary = try? BinaryPlistFile(contentsOf: file) {
                    try binary.check()
                } else {
                    _ = try Terminal.read(file)
                }
                if !silent { print("\(name): OK") }
            } catch {
                Terminal.report(error, file: name)
                failed = true
            }
        }
        return !failed
    }
}
