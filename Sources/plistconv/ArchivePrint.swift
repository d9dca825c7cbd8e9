import ArgumentParser
import PlistKit

/// `plistconv archive-print FILE...`: shows `NSKeyedArchiver` archives as resolved trees.
struct ArchivePrint: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "archive-print",
        abstract: "Print NSKeyedArchiver archives as resolved object trees.",
        discussion: """
            Objects are inlined: strings, dates and data as plain values, other objects as \
            dictionaries with their "$class". Each object appears once, where it is first reached \
            (with "$id" => "#n" when it is referenced again); later references, cycles included, \
            print as {"$ref" => "#n"}. `plistconv convert --resolve-archive` writes the same tree \
            in any format.
            """
    )

    @Argument(help: "Archives to print (- for standard input).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do {
                let document = try Terminal.reporting(file, isOutput: false) { () throws(PlistError) in
                    try Terminal.read(file)
                }
                let resolved = try Terminal.resolvingArchive(document.value, file: file)
                try Terminal.reporting("-", isOutput: true) { () throws(PlistError) in
                    try Terminal.writeOutput(HumanReadable.text(of: resolved))
                }
            } catch {
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
