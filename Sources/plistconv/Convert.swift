import ArgumentParser
import Dispatch
import PlistKit
import Synchronization

/// `plistconv convert -f FORMAT FILE...` (also `plistconv -f FORMAT IN [OUT]` and plutil's
/// `-convert FORMAT FILE...`): rewrites property lists in another format.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert", _superCommandName: PlistConv.name,
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

    @Option(name: [.short, .customLong("format")], help: "Output format: \(OutputFormat.helpList).")
    var format: OutputFormat?

    @Option(name: [.short, .customLong("output")], help: "Output file (- for standard output); one input only.")
    var output: String?

    @Option(name: [.short, .customLong("extension")], help: "Write each output beside its input, with this extension.")
    var `extension`: String?

    @Flag(name: [.short, .customLong("readable")], help: "JSON: indented, with sorted keys.")
    var readable = false

    @Option(
        help:
            "JSON: dates, data and UIDs as typed objects that read back exactly (typed), as strings (lossy), or an error (strict)."
    )
    var jsonValues: JSONValuesArgument = .typed

    @Flag(help: "openstep, strings: write numbers, Booleans and dates as strings instead of failing.")
    var stringify = false

    @Flag(
        name: [.customLong("header"), .customLong("header", withSingleDash: true)],
        help: "objc: also write a header beside each output (OUT with the extension .h).")
    var header = false

    @Flag(help: "Write a keyed archive's resolved object tree (see archive-print) instead of the archive.")
    var resolveArchive = false

    @Flag(name: .short, help: "Print nothing but errors.")
    var silent = false

    @Flag(
        help: """
            Binary to XML (-f xml) or UTF-8 XML to binary (-f binary): write the output as the input \
            is read, in memory bounded by the depth and the widest container instead of the file's size \
            (automatic for binary and XML files of 64 MiB or more).
            """)
    var stream = false

    @Option(
        help: """
            The most bytes an output may have (default: 256 MiB; when streaming binary to XML, 64 times \
            the input's size, XML to binary 4 times, and at least 256 MiB).
            """)
    var maxOutputBytes: Int?

    @Option(help: "The deepest nesting of arrays and dictionaries read and written (default: 512).")
    var maxDepth: Int?

    /// Set when the command word was left out: a second file is then the output.
    @Flag(name: .customLong("input-output"), help: .hidden)
    var inputOutput = false

    /// Set for libplist's `plistutil -i` spelling: without -f, binary becomes XML and other input binary.
    @Flag(name: .customLong("libplist"), help: .hidden)
    var libplist = false

    @Argument(help: "Input files (- for standard input).")
    var files: [String]

    mutating func validate() throws {
        if format == nil, !libplist { throw ValidationError("give the output format with -f FORMAT") }
        if inputOutput {
            guard files.count <= 2 else {
                throw ValidationError(
                    "give one input and at most one output; to convert several files in place, use "
                        + "`plistconv convert -f FORMAT FILE...`")
            }
            if files.count == 2 {
                guard output == nil else { throw ValidationError("give the output either as a second file or with -o") }
                output = files.removeLast()
            }
        }
        if output != nil, files.count > 1 { throw ValidationError("-o needs exactly one input file") }
        if output != nil, `extension` != nil { throw ValidationError("give either -o or -e, not both") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input can be read only once") }
        if header, format != .objc { throw ValidationError("--header goes with -f objc") }
        if stream, format != .xml && format != .binary && !(format == nil && libplist) || stream && resolveArchive {
            throw ValidationError(
                "--stream converts binary input to XML (-f xml) or XML to binary (-f binary), without --resolve-archive")
        }
        if let maxOutputBytes, maxOutputBytes < 1 { throw ValidationError("--max-output-bytes must be positive") }
        if let maxDepth, maxDepth < 1 { throw ValidationError("--max-depth must be positive") }
        if header, output == "-" || (output == nil && files.contains("-")) {
            throw ValidationError("--header needs an output file to put the header beside")
        }
    }

    func run() throws {
        let progress = Progress(total: files.count, shown: files.count > 1 && Terminal.errorIsTerminal)
        let failures = Atomic(0)
        let files = files
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            if !convert(files[index], progress: progress) { failures.add(1, ordering: .relaxed) }
            progress.advance()
        }
        progress.finish()
        if failures.load(ordering: .relaxed) > 0 { throw ExitCode.failure }
    }

    /// Binary files at least this large are converted to XML as they are read, and XML files to binary.
    static let streamingThreshold = 64 << 20

    /// The write limits the options give, for the in-memory path.
    private var writeLimits: PlistWriteOptions {
        var limits = PlistWriteOptions()
        if let maxDepth { limits.maxDepth = maxDepth }
        if let maxOutputBytes { limits.maxOutputBytes = maxOutputBytes }
        return limits
    }

    /// Converts one file; reports a failure on standard error and returns false.
    private func convert(_ input: String, progress: Progress) -> Bool {
        let destination = destination(for: input)
        if let streamed = convertStreaming(input, to: destination, progress: progress) { return streamed }
        var document: Document
        do throws(PlistError) {
            var options = PlistReadOptions()
            if let maxDepth { options.maxDepth = maxDepth }
            document = try Terminal.read(input, options: options)
        } catch {
            progress.report(error, file: Terminal.displayName(input, isOutput: false))
            return false
        }
        if resolveArchive {
            do {
                document.value = try KeyedArchive.resolve(document.value)
            } catch {
                progress.report(error, file: Terminal.displayName(input, isOutput: false))
                return false
            }
        }
        let format = format ?? (document.format == .binary ? .xml : .binary)
        let bytes: [UInt8]
        do throws(PlistError) {
            bytes = try format.encode(
                document.value, file: input, readable: readable, stringify: stringify, jsonValues: jsonValues.values,
                limits: writeLimits)
        } catch {
            // A value the format cannot hold is the input's: name it, and what would hold it.
            // (Limits such as the output's size are the output's.)
            guard error.code == .unrepresentable else {
                progress.report(error, file: Terminal.displayName(destination, isOutput: true))
                return false
            }
            let hint = format.hint(for: error, stringify: stringify).map { " (\($0))" } ?? ""
            progress.report("\(error)\(hint)", file: Terminal.displayName(input, isOutput: false))
            return false
        }
        do throws(PlistError) {
            try Terminal.output(bytes, to: destination)
            if header {
                let headerPath = Terminal.replacingExtension(of: destination, with: "h")
                try Terminal.output(OutputFormat.objcHeader(document.value, file: input), to: headerPath)
            }
            return true
        } catch {
            progress.report(error, file: Terminal.displayName(destination, isOutput: true))
            return false
        }
    }

    /// Converts a binary file to XML as it reads it (with `--stream`, or for a file of at least
    /// `streamingThreshold` bytes): the result, or nil when the file is converted in memory.
    ///
    /// The values and content read are not limited (memory does not grow with them); depth is,
    /// and so is the output: by default 64 times the input's size, at least 256 MiB, which
    /// real files stay far below and which stops a small file whose shared references describe
    /// an endless document.
    private func convertStreaming(_ input: String, to destination: String, progress: Progress) -> Bool? {
        guard !resolveArchive, input != "-" else { return nil }
        let size = Terminal.fileSize(input) ?? 0
        guard stream || size >= Self.streamingThreshold else { return nil }
        let head = Terminal.firstBytes(of: input, count: 8)
        let target = format ?? (libplist ? (head.starts(with: "bplist".utf8) ? .xml : .binary) : nil)
        if target == .binary { return convertXMLStreaming(input, size: size, to: destination, progress: progress) }
        guard target == .xml else { return nil }
        let name = Terminal.displayName(input, isOutput: false)
        let file: BinaryPlistFile
        do throws(PlistError) {
            let options = PlistReadOptions(maxDepth: maxDepth ?? 512, maxObjects: .max, maxContentBytes: .max)
            file = try BinaryPlistFile(contentsOf: input, options: options)
        } catch {
            // Not a binary file: converted in memory, unless streaming was asked for.
            guard stream else { return nil }
            if error.code == .badMagic {
                progress.report(Message(description: "--stream reads binary input only: \(error)"), file: name)
            } else {
                progress.report(error, file: name)
            }
            return false
        }
        let (scaled, overflow) = size.multipliedReportingOverflow(by: 64)
        var limits = PlistWriteOptions(maxOutputBytes: maxOutputBytes ?? max(1 << 28, overflow ? .max : scaled))
        if let maxDepth { limits.maxDepth = maxDepth }
        do throws(PlistError) {
            if destination == "-" {
                try file.writeXML(options: limits) { chunk throws(PlistError) in
                    try PlistFile.write(chunk, toFileDescriptor: 1)
                }
            } else {
                try file.writeXML(toFile: destination, options: limits)
            }
            return true
        } catch {
            progress.report(error, file: error.code == .io ? Terminal.displayName(destination, isOutput: true) : name)
            return false
        }
    }

    /// Converts an XML file to binary as it reads it (with `--stream`, or for a file of at least
    /// `streamingThreshold` bytes): the result, or nil when the file is converted in memory.
    ///
    /// As for binary to XML, values and content are not limited, depth is, and so is the output:
    /// by default 4 times the input's size (XML cannot describe more than it holds, and binary
    /// takes at most about twice its bytes), at least 256 MiB.
    private func convertXMLStreaming(_ input: String, size: Int, to destination: String, progress: Progress) -> Bool? {
        let name = Terminal.displayName(input, isOutput: false)
        // Only XML streams: a document whose first byte (after a UTF-8 byte-order mark and
        // white space) is `<`, in UTF-8. Anything else is converted in memory unless streaming
        // was asked for.
        let head = Terminal.firstBytes(of: input, count: 4096)
        let text = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
        let isXML = text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<")
        guard isXML else {
            guard stream else { return nil }
            progress.report(Message(description: "--stream to binary reads UTF-8 XML input only"), file: name)
            return false
        }
        let readOptions = PlistReadOptions(maxDepth: maxDepth ?? 512, maxObjects: .max, maxContentBytes: .max)
        let (scaled, overflow) = size.multipliedReportingOverflow(by: 4)
        var limits = PlistWriteOptions(maxOutputBytes: maxOutputBytes ?? max(1 << 28, overflow ? .max : scaled))
        if let maxDepth { limits.maxDepth = maxDepth }
        do throws(PlistError) {
            if destination == "-" {
                try PlistFile.convertXMLToBinary(
                    at: input, toFileDescriptor: 1, readable: false, readOptions: readOptions, writeOptions: limits)
            } else {
                try PlistFile.convertXMLToBinary(
                    at: input, toFile: destination, readOptions: readOptions, writeOptions: limits)
            }
            return true
        } catch {
            // libxml2 refuses references to characters XML 1.0 forbids (`&#8;`), which this
            // package's XML writer writes and its in-memory reader reads. A file that streams only
            // because of its size is then converted in memory, as below the threshold; its output
            // file was never replaced. (Standard output may hold part of the output already.)
            if !stream, destination != "-", error.message.contains("xmlParseCharRef") { return nil }
            progress.report(error, file: error.code == .io ? Terminal.displayName(destination, isOutput: true) : name)
            return false
        }
    }

    private func destination(for input: String) -> String {
        if let output { return output }
        if input == "-" { return "-" }
        guard let ext = `extension` else { return input }
        return Terminal.replacingExtension(of: input, with: ext)
    }
}

/// A failure that is no `PlistError`.
private struct Message: Error, CustomStringConvertible {
    var description: String
}

/// The "converted N of M files" line on standard error, and error lines that do not mix with it.
private final class Progress: Sendable {
    private let total: Int
    private let shown: Bool
    private let done = Mutex(0)

    init(total: Int, shown: Bool) {
        self.total = total
        self.shown = shown
    }

    func advance() {
        done.withLock { count in
            count += 1
            if shown { Terminal.writeError("\r\u{1B}[Kplistconv: converted \(count) of \(total) files") }
        }
    }

    func report(_ error: some CustomStringConvertible, file: String) {
        done.withLock { _ in
            if shown { Terminal.writeError("\r\u{1B}[K") }
            Terminal.report(error, file: file)
        }
    }

    func finish() {
        if shown { Terminal.writeError("\r\u{1B}[K") }
    }
}
