import ArgumentParser
import PlistKit

/// `plistconv lint FILE...`: checks that each file is a valid property list.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check that files are valid property lists.",
        discussion: "Prints \"FILE: OK\" for each valid file; exits 1 if any file is not valid."
    )

    @Flag(name: .short, help: "Print nothing for valid files.")
    var silent = false

    @Argument(help: "Files to check, or - for standard input.")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            let name = Terminal.displayName(file, isOutput: false)
            do throws(PlistError) {
                _ = try Terminal.read(file)
                if !silent { print("\(name): OK") }
            } catch {
                Terminal.report(error, file: name)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
