import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `plistconv` command: converts, checks, prints and edits property lists.
@main
struct PlistConv: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plistconv",
        abstract: "Convert, check, print and edit property lists (binary, XML, OpenStep, JSON).",
        discussion: """
            Exit status: 0 on success, 1 when an input is not a valid property list or a file \
            cannot be read or written (with one line per failure on standard error: \
            "plistconv: FILE: reason, with its line:column or byte offset"), 64 for a usage error.

            plutil's spellings work too: -convert FMT, -lint, -p, -extract KEYPATH FMT, -type \
            KEYPATH, -insert/-replace KEYPATH -TYPE VALUE, -remove KEYPATH, -create FMT, -help, and \
            -o, -e, -s, -r, -n, -expect, -append. So do libplist's: plistutil -i IN [-o OUT] \
            [-f bin|xml|json|openstep], -p FILE. `--` ends the options, so that files and key paths \
            may start with -.
            """,
        subcommands: [
            Convert.self, Lint.self, Print.self, Extract.self, TypeOf.self, Insert.self, Replace.self,
            Remove.self, Create.self, ArchivePrint.self,
        ],
        defaultSubcommand: Convert.self
    )

    static func main() {
        // Past the file-size limit (`ulimit -f`), a write then fails with EFBIG, which is
        // reported with the file's name, instead of killing the process with no message and
        // the temporary file left behind. (The command's choice: PlistKit changes no signal.)
        signal(SIGXFSZ, SIG_IGN)
        main(CommandSpelling.normalized(Array(CommandLine.arguments.dropFirst())))
    }
}
