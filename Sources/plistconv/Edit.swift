import ArgumentParser
import PlistKit

/// `plistconv insert KEYPATH -TYPE VALUE FILE...` (plutil's `-insert`).
struct Insert: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "insert",
        abstract: "Add a value at a key path (plutil -insert).",
        discussion: """
            In a dictionary the key must be new (use replace to overwrite); in an array the value \
            goes before the index given (the array's count appends). With -append the key path names \
            an array and the value is appended to it. Files are written back in their own format.
            """
    )

    @OptionGroup var keyPath: KeyPathArgument

    @OptionGroup var value: NewValue

    @Flag(
        name: OptionSpelling.append.names,
        help: "Append to the array at the key path.")
    var append = false

    @OptionGroup var files: EditedFiles

    func run() throws {
        let path = keyPath.path
        try files.edit { (plist: inout Plist) throws(PlistError) in
            let new = try value.plist()
            if append { try plist.append(new, toArrayAt: path) } else { try plist.insert(new, at: path) }
        }
    }
}

/// `plistconv replace KEYPATH -TYPE VALUE FILE...` (plutil's `-replace`).
struct Replace: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "replace",
        abstract: "Set the value at a key path (plutil -replace).",
        discussion: """
            A dictionary key is added or overwritten; an array element is overwritten (plutil on \
            Linux inserts instead). An empty key path replaces the whole value.
            """
    )

    @OptionGroup var keyPath: KeyPathArgument

    @OptionGroup var value: NewValue

    @OptionGroup var files: EditedFiles

    func run() throws {
        let path = keyPath.path
        try files.edit { (plist: inout Plist) throws(PlistError) in try plist.replace(try value.plist(), at: path) }
    }
}

/// `plistconv remove KEYPATH FILE...` (plutil's `-remove`).
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "remove", abstract: "Remove the value at a key path (plutil -remove).")

    @OptionGroup var keyPath: KeyPathArgument

    @OptionGroup var files: EditedFiles

    func run() throws {
        let path = keyPath.path
        try files.edit { (plist: inout Plist) throws(PlistError) in try plist.remove(at: path) }
    }
}

/// `plistconv create FORMAT FILE...` (plutil's `-create`).
struct Create: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "create",
        abstract: "Create property lists holding an empty dictionary (plutil -create).",
        discussion: "An existing file is left alone and reported (remove it first to start over)."
    )

    @Argument(help: "Output format: \(OutputFormat.helpList).")
    var format: OutputFormat

    @Argument(help: "Files to create (- for standard output).")
    var files: [String]

    func run() throws {
        var failed = false
        for file in files {
            do throws(PlistError) {
                if file != "-", Terminal.exists(file) {
                    throw PlistError(.io(reason: "the file exists already"), at: 0)
                }
                let bytes = try format.encode(.dictionary([:]), file: file)
                try Terminal.output(bytes, to: file)
            } catch {
                Terminal.report(error, file: Terminal.displayName(file, isOutput: true))
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}

/// The files an edit reads and writes back, each in its own format.
struct EditedFiles: ParsableArguments {
    @OptionGroup var output: OutputOption

    @Flag(name: OptionSpelling.silent.names, help: "Accepted for plutil compatibility; edits print nothing anyway.")
    var silent = false

    @Argument(help: "Files to edit in place (- for standard input, written to standard output).")
    var files: [String]

    func validate() throws {
        if output.output != nil, files.count > 1 { throw ValidationError("-o needs exactly one input file") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input can be read only once") }
    }

    /// Reads each file, applies `change`, and writes it back in its format (or to -o); reports
    /// each failure and exits 1 if any.
    func edit(_ change: (inout Plist) throws(PlistError) -> Void) throws {
        var failed = false
        for file in files {
            let destination = output.output ?? file
            var document: Document
            do throws(PlistError) {
                document = try Terminal.read(file)
                try change(&document.value)
            } catch {
                Terminal.report(error, file: Terminal.displayName(file, isOutput: false))
                failed = true
                continue
            }
            do throws(PlistError) {
                let format = OutputFormat(document.format, file: file)
                let bytes = try format.encode(document.value, file: file, original: document.text)
                try Terminal.output(bytes, to: destination)
            } catch {
                Terminal.report(error, file: Terminal.displayName(destination, isOutput: true))
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
