import ArgumentParser
import PlistKit
import PlistRepository

/// `plistconv diff A B`: the differences between two property lists, by key path.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "diff",
        abstract: "Compare two property lists by key path, in any formats.",
        discussion: """
            One line per difference: "added", "removed", "changed" (old → new) or "retyped" (a value \
            whose type changed), then the key path and the values. Array elements that were added or \
            removed are reported as such, not as changes of the elements after them. Removed and \
            changed values are named by their place in A, added ones by their place in B. \
            --format json writes an array of {"kind", "path", "old", "new"} objects (path: keys as \
            strings, indexes as numbers; values as typed JSON).

            --textconv FILE writes FILE as XML (or as typed JSON when XML cannot hold a value), for \
            git's diff.<driver>.textconv, so that binary property lists diff as text; a file that is \
            not a property list is written as it is, with the reason on standard error.

            Exit status: 0 when the values are the same, 1 when they differ, 2 on error, as diff's.
            """
    )

    enum OutputStyle: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "Output: text or json.")
    var format: OutputStyle = .text

    @Flag(help: "Write the one FILE as text for git's textconv instead of comparing.")
    var textconv = false

    @Argument(help: "The files: A and B (- for standard input), or FILE with --textconv.")
    var files: [String]

    func validate() throws {
        if textconv {
            guard files.count == 1 else { throw ValidationError("--textconv takes exactly one file") }
        } else {
            guard files.count == 2 else { throw ValidationError("give two files to compare") }
            guard files.filter({ $0 == "-" }).count < 2 else {
                throw ValidationError("standard input can be read only once")
            }
        }
    }

    func run() throws {
        if textconv {
            if !Self.textconv(files[0]) { throw ExitCode(2) }
            return
        }
        let old = try read(files[0])
        let new = try read(files[1])
        let changes = PlistDiff(from: old.value, to: new.value)
        try writing { () throws(PlistError) in
            switch format {
            case .text: try Terminal.writeOutput(changes.map { $0.line + "\n" }.joined())
            case .json:
                var options = PlistWriteOptions()
                options.sortsKeys = false
                try Terminal.output(try Plist.array(changes.map(\.plist)).jsonBytes(options: options) + [0x0A], to: "-")
            }
        }
        if !changes.isEmpty { throw ExitCode(1) }
    }

    /// The file read, or exit status 2 with the reason on standard error.
    private func read(_ file: String) throws -> Document {
        do {
            return try Terminal.read(file)
        } catch {
            Terminal.report(error, file: Terminal.displayName(file, isOutput: false))
            throw ExitCode(2)
        }
    }

    /// Runs `output`; if it fails, exit status 2 with the reason on standard error.
    private func writing(_ output: () throws(PlistError) -> Void) throws {
        do {
            try output()
        } catch {
            Terminal.report(error, file: Terminal.displayName("-", isOutput: true))
            throw ExitCode(2)
        }
    }

    /// Writes `file` as text for git's textconv (`textForGit`) to standard output; whether it
    /// succeeded (if not, the reason is on standard error). `QuickCommandLine` runs it too: git
    /// runs `diff --textconv FILE` once per file per revision.
    static func textconv(_ file: String) -> Bool {
        let text: [UInt8]
        do {
            text = try textForGit(file)
        } catch {
            // The input could not be read: the error names it, not standard output.
            Terminal.report(error, file: Terminal.displayName(file, isOutput: false))
            return false
        }
        do {
            try Terminal.output(text, to: "-")
        } catch {
            Terminal.report(error, file: Terminal.displayName("-", isOutput: true))
            return false
        }
        return true
    }

    /// The text git diffs for `file`: its value as `text(of:)`, or, when the file is not a
    /// property list (damaged, or not one at all), its bytes as they are, with the reason on
    /// standard error, so that git still shows the change.
    private static func textForGit(_ file: String) throws(PlistError) -> [UInt8] {
        let bytes = try Terminal.bytes(of: file)
        do throws(PlistError) {
            return try text(of: try Plist(bytes: bytes))
        } catch {
            Terminal.report(error, file: Terminal.displayName(file, isOutput: false) + " (shown as it is)")
            return bytes
        }
    }

    /// `value` as text for git: XML, as Foundation writes it (keys sorted); indented typed JSON
    /// when XML cannot hold a value (a date past the year 9999, a NaN date).
    static func text(of value: Plist) throws(PlistError) -> [UInt8] {
        do {
            return try value.xmlBytes()
        } catch {
            guard error.code == .unrepresentable else { throw error }
            var options = PlistWriteOptions()
            options.indentsJSON = true
            return try value.jsonBytes(options: options)
        }
    }
}
