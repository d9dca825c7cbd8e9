import ArgumentParser
import PlistKit

/// `plistconv archive-print FILE...`: shows `NSKeyedArchiver` archives as resolved trees.
struct ArchivePrint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive-print",
        abstract: "Print NSKeyedArchiver archives as resolved object trees.",
        discussion: """
            Objects are inlined: Foundation's value classes as plain values, other objects as \
            dictionaries starting with "$class". An object referenced more than once is printed \
            once as {"$id" => N, "$value" => ...} and then as {"$ref" => N}, cycles included. \
            `plistconv convert --resolve-archive` writes the same tree in any format.
            """
    )

    @Argument(help: "Archives to print (- for standard input).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do throws(PlistError) {
                let resolved = try KeyedArchive.resolve(try Terminal.read(file).value)
                try Terminal.writeOutput(HumanReadable.text(of: resolved))
            } catch {
                Terminal.report(error, file: Terminal.displayName(file, isOutput: false))
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
