import ArgumentParser
import Dispatch
import PlistKit
import Synchronization

/// `plistconv convert -f FORMAT FILE...` (also `plistconv -f FORMAT IN [OUT]` and plutil's
/// `-convert FORMAT FILE...`): rewrites property lists in another format.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "convert",
        abstract: "Convert property lists to another format (the default command).",
        usage: """
            plistconv -f <format> <in> [<out>]
            plistconv convert -f <format> [-o <out> | -e <ext>] <file>...
            """,
        discussion: """
            Without a command word, `plistconv -f FORMAT IN OUT` converts IN into OUT, and \
            `plistconv -f FORMAT FILE` converts FILE in place. `convert` converts each FILE in place, \
            or into -o OUT (one input only), or beside it with the extension -e EXT; several files are \
            converted in parallel, with a progress line when standard error is a terminal. `-` is \
            standard input or output; standard input is converted to standard output.

            In libplist's spelling (plistutil -i IN -o OUT) without -f, binary input becomes XML \
            and any other input binary.
            Outputs are replaced atomically and keep their permissions: a failed conversion leaves \
            the old file untouched.
            """
    )

    @Option(name: OptionSpelling.format.names, help: "Output format: \(OutputFormat.helpList).")
    var format: OutputFormat?

    @OptionGroup var outputOption: OutputOption
    /// The output file given with -o, if any.
    var output: String? { outputOption.output }

    @Option(name: OptionSpelling.extension.names, help: "Write each output beside its input, with this extension.")
    var `extension`: String?

    @OptionGroup var json: ReadableOption

    @Option(
        help:
            "JSON: dates, data and UIDs as typed objects that read back exactly (typed), as strings (lossy), or an error (strict)."
    )
    var jsonValues: JSONValuesArgument = .typed

    @Flag(
        name: OptionSpelling.stringify.names,
        help: "openstep, strings: write numbers, Booleans and dates as strings instead of failing.")
    var stringify = false

    @Flag(
        name: OptionSpelling.header.names,
        help: "objc: also write a header beside each output (OUT with the extension .h).")
    var header = false

    @Flag(help: "Write a keyed archive's resolved object tree (see archive-print) instead of the archive.")
    var resolveArchive = false

    @Flag(name: OptionSpelling.silent.names, help: "Print nothing but errors.")
    var silent = false

    @Flag(
        name: OptionSpelling.stream.names,
        help: """
            Binary to XML (-f xml) or XML to binary (-f binary): write the output as the input is read, \
            in memory bounded by the depth and the widest container instead of the file's values \
            (automatic for files of 64 MiB or more). The result is the same either way: what cannot \
            stream (standard input and pipes, other formats, UTF-16 XML) is converted in memory.
            """)
    var stream = false

    @Option(
        help: """
            The most bytes an output may have (default: 64 times the input's size, and at least 256 MiB).
            """)
    var maxOutputBytes: Int?

    @Argument(help: "Input files (- for standard input).")
    var files: [String]

    /// What the files and a missing format mean on this command line: `CommandSpelling` decides
    /// it from the spelling, and the routes that parse with ArgumentParser set it for the parse
    /// and the run (`Route.init(parsingWithArgumentParser:)`), so that no option of `convert`
    /// has to carry it.
    @TaskLocal static var spelling = Conversion.Spelling.convert

    func validate() throws {
        _ = try conversion()
    }

    func run() throws {
        if try !conversion().run() { throw ExitCode.failure }
    }

    /// The conversion these options ask for, or a usage error.
    func conversion() throws -> Conversion {
        var conversion = Conversion(files: files, format: format)
        conversion.output = output
        conversion.extension = `extension`
        conversion.readable = json.readable
        conversion.jsonValues = jsonValues.values
        conversion.stringify = stringify
        conversion.header = header
        conversion.resolveArchive = resolveArchive
        conversion.stream = stream
        conversion.maxOutputBytes = maxOutputBytes
        do throws(Conversion.UsageError) {
            try conversion.resolve(Self.spelling)
        } catch {
            throw ValidationError(error.message)
        }
        return conversion
    }
}
