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
    var jsonValues: JSONValues = .typed
    var stringify = false
    var header = false
    var resolveArchive = false
    var stream = false
    var maxOutputBytes: Int?
    var maxDepth: Int?
    /// libplist's `plistutil -i` spelling: without a format, binary becomes XML and other input binary.
    var libplist = false

    init(files: [String], format: OutputFormat?) {
        self.files = files
        self.format = format
    }

    /// A command line that asks for no conversion, or for one that cannot be done.
    struct UsageError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Checks the options against each other. With `inputOutput` (no command word), a second
    /// file is the output.
    mutating func resolve(inputOutput: Bool) throws(UsageError) {
        if format == nil, !libplist { throw UsageError("give the output format with -f FORMAT") }
        if inputOutput {
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
                "--stream converts binary input to XML (-f xml) or XML to binary (-f binary), without --resolve-archive")
        }
        if let maxOutputBytes, maxOutputBytes < 1 { throw UsageError("--max-output-bytes must be positive") }
        if let maxDepth, maxDepth < 1 { throw UsageError("--max-depth must be positive") }
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
            if !convert(files[index], progress: progress) { failures.add(1, ordering: .relaxed) }
            progress.advance()
        }
        progress.finish()
        return failures.load(ordering: .relaxed) == 0
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
                document.value, file: input, readable: readable, stringify: stringify, jsonValues: jsonValues,
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
