import Dispatch
import PlistKit
import Synchronization

/// What `plistconv convert` does, once its command line is parsed: by ArgumentParser (`Convert`),
/// or by `QuickCommandLine` for the common spellings.
struct Conversion: Equatable {
    var files: [String]
    var format: OutputFormat?
    var output: String?
    var `extension`: String?
    var readable = false
    var jsonValues: PlistWriteOptions.JSONValues = .typed
    var stringify = false
    var header = false
    var resolveArchive = false
    var stream = false
    var maxOutputBytes: Int?
    /// libplist's `plistutil -i` spelling (set by `resolve(_:)`): without a format, binary
    /// becomes XML and other input binary.
    private(set) var libplist = false

    init(files: [String], format: OutputFormat?) {
        self.files = files
        self.format = format
    }

    /// A command line that asks for no conversion, or for one that cannot be done.
    struct UsageError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// What a conversion's files and a missing format mean, which the command line's spelling
    /// decides (`CommandSpelling`).
    enum Spelling: Equatable, Sendable {
        /// `convert FILE...`: each file is an input.
        case convert
        /// No command word (`plistconv -f FORMAT IN [OUT]`): a second file is the output.
        case inputOutput
        /// libplist's `plistutil -i IN [-o OUT]`: without a format, binary becomes XML and
        /// other input binary.
        case libplist
    }

    /// Checks the options against each other, for a command line spelled `spelling`.
    mutating func resolve(_ spelling: Spelling) throws(UsageError) {
        libplist = spelling == .libplist
        if format == nil, !libplist { throw UsageError("give the output format with -f FORMAT") }
        if spelling == .inputOutput {
            guard files.count <= 2 else {
                throw UsageError(
                    "give one input and at most one output; to convert several files in place, use "
                        + "`plistconv convert -f FORMAT FILE...`")
            }
            if files.count == 2 {
                guard output == nil else { throw UsageError("give the output either as a second file or with -o") }
                output = files.removeLast()
            }
        }
        if output != nil, files.count > 1 { throw UsageError("-o needs exactly one input file") }
        if output != nil, `extension` != nil { throw UsageError("give either -o or -e, not both") }
        if files.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input can be read only once") }
        if header, format != .objc { throw UsageError("--header goes with -f objc") }
        if stream, format != .xml && format != .binary && !(format == nil && libplist) || stream && resolveArchive {
            throw UsageError(
                "--stream converts binary input to XML (-f xml) or XML to binary (-f binary), without --resolve-archive"
            )
        }
        if let maxOutputBytes, maxOutputBytes < 1 { throw UsageError("--max-output-bytes must be positive") }
        if header, output == "-" || (output == nil && files.contains("-")) {
            throw UsageError("--header needs an output file to put the header beside")
        }
    }

    /// Converts every file (several at once), reporting each failure on standard error; whether all succeeded.
    func run() -> Bool {
        let progress = Progress(total: files.count, shown: files.count > 1 && Terminal.errorIsTerminal)
        let failures = Atomic(0)
        let files = files
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            if let failure = convert(files[index]) {
                progress.report(failure.message, file: failure.file)
                failures.add(1, ordering: .relaxed)
            }
            progress.advance()
        }
        progress.finish()
        return failures.load(ordering: .relaxed) == 0
    }

    /// Binary and XML files at least this large are converted as they are read, without
    /// `--stream`: 64 MiB, or the number of bytes in the environment variable
    /// `PLISTCONV_STREAMING_THRESHOLD`, which only this tool reads (for tests of the automatic
    /// switch on small files; the switch never changes a result, only the memory it takes).
    static let streamingThreshold: Int = {
        guard let text = Platform.environment("PLISTCONV_STREAMING_THRESHOLD"), let bytes = Int(text), bytes >= 0
        else { return 64 << 20 }
        return bytes
    }()

    /// The size from which a file is converted as it is read without `--stream`
    /// (`Conversion.streamingThreshold`; tests set it on the value).
    var streamingThreshold = Conversion.streamingThreshold

    /// The write limits for an input of `size` bytes, the same for every path: the options',
    /// else by default an output of at most 64 times the input's size and at least 256 MiB (XML
    /// of real binary files is a few times their size, while a small file whose shared
    /// references describe an endless document stops there).
    private func writeLimits(forInputOf size: Int) -> PlistWriteOptions {
        let (scaled, overflow) = size.multipliedReportingOverflow(by: 64)
        var limits = PlistWriteOptions(maxOutputBytes: maxOutputBytes ?? max(1 << 28, overflow ? .max : scaled))
        limits.maxDepth = ReadLimits.current.maxDepth
        return limits
    }

    /// Why one file was not converted: the message, and the file it concerns (the input, or the
    /// output for what is the output's: its size, writing it).
    struct Failure: Error, Equatable {
        var file: String
        var message: String

        init(file: String, message: String) {
            self.file = file
            self.message = message
        }

        /// `error` on `file`, with the hints of plistconv's options for the limits.
        init(_ file: String, _ error: PlistError) {
            let hint =
                error.code == .outputTooLarge ? "raise it with --max-output-bytes" : ReadLimits.hint(for: error.code)
            self.init(file: file, message: hint.map { error.description(limitHint: $0) } ?? error.description)
        }
    }

    /// Converts one file, as it is read or in memory; the failure, or nil.
    ///
    /// Every path gives the same result for the same input (the same limits, the same checks):
    /// a binary file streams to XML and an XML file to binary (from `streamingThreshold` bytes
    /// on, or with `--stream`) when it is a regular file the streaming path reads as the
    /// in-memory reader does; anything else is converted in memory, whatever its size.
    func convert(_ input: String) -> Failure? {
        let destination = destination(for: input)
        let inputName = Terminal.displayName(input, isOutput: false)
        let outputName = Terminal.displayName(destination, isOutput: true)
        let source: PlistInput
        do throws(PlistError) {
            source = try PlistInput.opening(input)
        } catch {
            return Failure(inputName, error)
        }
        let detected = try? source.format()
        let target = format ?? (detected == .binary ? .xml : .binary)
        if !resolveArchive, case .regularFile(let size) = source.kind, stream || size >= streamingThreshold {
            if detected == .binary, target == .xml {
                return convertBinaryStreaming(source, size: size, to: destination, inputName, outputName)
            }
            if detected == .xml, target == .binary {
                do throws(PlistError) {
                    if try PlistFile.canStreamXML(source) {
                        return convertXMLStreaming(source, size: size, to: destination, inputName, outputName)
                    }
                } catch {
                    return Failure(inputName, error)
                }
            }
        }
        var document: Document
        do throws(PlistError) {
            document = try Terminal.read(source)
        } catch {
            return Failure(inputName, error)
        }
        if resolveArchive {
            do {
                document.value = try KeyedArchive.resolve(document.value)
            } catch {
                return Failure(file: inputName, message: "\(error)")
            }
        }
        let bytes: [UInt8]
        do throws(PlistError) {
            bytes = try target.encode(
                document.value, file: input, readable: readable, stringify: stringify, jsonValues: jsonValues,
                limits: writeLimits(forInputOf: document.inputSize),
                original: target == .pbxproj ? document.text : nil)
        } catch {
            // A value the format cannot hold is the input's: name it, and what would hold it.
            // (Limits such as the output's size are the output's.)
            guard error.code == .unrepresentable else { return Failure(outputName, error) }
            return unrepresentable(error, in: target, inputName)
        }
        do throws(PlistError) {
            try Terminal.output(bytes, to: destination)
            if header {
                let headerPath = Terminal.replacingExtension(of: destination, with: "h")
                try Terminal.output(OutputFormat.objcHeader(document.value, file: input), to: headerPath)
            }
            return nil
        } catch {
            return Failure(outputName, error)
        }
    }

    /// The failure for `error`, an `.unrepresentable` value of the input, with what would hold it.
    private func unrepresentable(_ error: PlistError, in format: OutputFormat, _ inputName: String) -> Failure {
        let hint = format.hint(for: error, stringify: stringify).map { " (\($0))" } ?? ""
        return Failure(file: inputName, message: "\(error)\(hint)")
    }

    /// The failure for `error` from a streaming conversion: the reader's errors are the input's,
    /// the output's size and writing it are the output's, as in memory.
    private func streamingFailure(
        _ error: PlistError, in format: OutputFormat, _ inputName: String, _ outputName: String
    ) -> Failure {
        switch error.code {
        case .unrepresentable: unrepresentable(error, in: format, inputName)
        case .outputTooLarge, .io, .writerMisuse: Failure(outputName, error)
        default: Failure(inputName, error)
        }
    }

    /// Converts a binary file to XML as it reads it: the whole file is read and checked first,
    /// with the in-memory path's limits, then written (`BinaryPlistFile.writeXML`).
    private func convertBinaryStreaming(
        _ source: PlistInput, size: Int, to destination: String, _ inputName: String, _ outputName: String
    ) -> Failure? {
        let file: BinaryPlistFile
        do throws(PlistError) {
            file = try BinaryPlistFile(
                input: source, options: Terminal.readOptionsWithoutValues(for: source))
        } catch {
            return Failure(inputName, error)
        }
        let limits = writeLimits(forInputOf: size)
        do throws(PlistError) {
            if destination == "-" {
                try file.writeXML(options: limits) { chunk throws(PlistError) in
                    try PlistFile.write(chunk, toFileDescriptor: 1)
                }
            } else {
                try file.writeXML(toFile: destination, options: limits)
            }
            return nil
        } catch {
            return streamingFailure(error, in: .xml, inputName, outputName)
        }
    }

    /// Converts an XML file to binary as it reads it (`PlistFile.canStreamXML` said the
    /// streaming reader reads it as the in-memory one), with the in-memory path's limits.
    private func convertXMLStreaming(
        _ source: PlistInput, size: Int, to destination: String, _ inputName: String, _ outputName: String
    ) -> Failure? {
        let readOptions = Terminal.readOptionsWithoutValues(for: source)
        let limits = writeLimits(forInputOf: size)
        do throws(PlistError) {
            if destination == "-" {
                try PlistFile.convertXMLToBinary(
                    source, toFileDescriptor: 1, readable: false, readOptions: readOptions, writeOptions: limits)
            } else {
                try PlistFile.convertXMLToBinary(
                    source, toFile: destination, readOptions: readOptions, writeOptions: limits)
            }
            return nil
        } catch {
            return streamingFailure(error, in: .binary, inputName, outputName)
        }
    }

    private func destination(for input: String) -> String {
        if let output { return output }
        if input == "-" { return "-" }
        guard let ext = `extension` else { return input }
        return Terminal.replacingExtension(of: input, with: ext)
    }
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
