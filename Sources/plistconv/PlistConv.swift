import ArgumentParser

/// The `plistconv` command: converts and checks property lists.
@main
struct PlistConv: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plistconv",
        abstract: "Convert and check property lists (binary, XML, OpenStep).",
        discussion: """
            Exit status: 0 on success, 1 when an input is not a valid property list or a file \
            cannot be read or written (with one line on standard error: "plistconv: FILE: reason").
            """,
        subcommands: [Convert.self, Lint.self],
        defaultSubcommand: Convert.self
    )
}
