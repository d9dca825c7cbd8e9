import ArgumentParser
import PlistKit
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A property list read from a file or standard input, with the format it was in.
struct Document {
    var value: Plist
    var format: PlistFormat
    /// How many bytes were read.
    var inputSize = 0
    /// The bytes of OpenStep and `.strings` text, whose comments and layout edits keep.
    var text: [UInt8]? = nil
}

/// Files and standard streams as the commands see them (`-` is standard input or output), and
/// the one-line error report.
///
/// Every command reads its inputs the same way: opened once as a `PlistInput` (checked by type,
/// never waited on, its first bytes kept), the format judged from those bytes, and the read
/// limits of `ReadLimits`, whatever path then reads it.
enum Terminal {
    /// The bytes of the file at `path` (`-` is standard input), for the commands that need a
    /// file's bytes as well as, or instead of, its value: opened and read as `PlistInput` reads
    /// every input, within the bytes a whole read takes into memory.
    static func bytes(of path: String) throws(PlistError) -> [UInt8] {
        Array(try PlistInput.opening(path).contents(limit: ReadLimits.current.inMemoryInputLimit))
    }

    /// Reads the property list at `path` (`-` is standard input) whole.
    static func read(_ path: String) throws(PlistError) -> Document {
        try read(try PlistInput.opening(path))
    }

    /// Reads the property list in `input` whole (`Plist.read(_:limit:options:)`, the library's
    /// one whole read) within the limits of the command line (`ReadLimits.inMemory(forInputOf:)`):
    /// an input larger than they allow is refused from its size, before anything is allocated.
    static func read(_ input: PlistInput) throws(PlistError) -> Document {
        let limits = ReadLimits.current
        let (value, format, bytes) = try Plist.read(
            input, limit: limits.inMemoryInputLimit, options: limits.inMemory(forInputOf:))
        return Document(
            value: value, format: format, inputSize: bytes.count,
            text: (format == .openStep || format == .strings) && !bytes.isEmpty ? [UInt8](bytes) : nil)
    }

    /// The read limits of a path that holds no values (streaming, lazy, checking) for `input`
    /// (`ReadLimits.withoutValues(forInputOf:)`).
    static func readOptionsWithoutValues(for input: PlistInput) -> PlistReadOptions {
        ReadLimits.current.withoutValues(forInputOf: size(of: input))
    }

    /// The size of a regular file, 0 for a stream (not known before it is read).
    static func size(of input: PlistInput) -> Int {
        if case .regularFile(let size) = input.kind { return size }
        return 0
    }

    /// Writes `bytes` to the file at `path` atomically, or to standard output for `-`.
    static func output(_ bytes: [UInt8], to path: String) throws(PlistError) {
        if path == "-" {
            try PlistFile.write(bytes, toFileDescriptor: 1)
        } else {
            try PlistFile.write(bytes, to: path)
        }
    }

    /// Runs `body`; if it fails, reports the error against `file` (an output when `isOutput`)
    /// and exits with status 1.
    static func reporting<T>(_ file: String, isOutput: Bool, _ body: () throws(PlistError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            report(error, file: displayName(file, isOutput: isOutput))
            throw ExitCode.failure
        }
    }

    /// How a path is shown in messages: `-` is `<stdin>` or `<stdout>`.
    static func displayName(_ path: String, isOutput: Bool) -> String {
        path == "-" ? (isOutput ? "<stdout>" : "<stdin>") : path
    }

    /// Prints `plistconv: NAME: message` on standard error, on one line: control characters
    /// in the name (and in a message that is no `PlistError`, whose messages escape their own)
    /// are escaped (`\n`, `\u{1B}`), so that no file name or key can add or forge a line.
    static func report(_ error: some CustomStringConvertible, file name: String) {
        writeError("plistconv: \(name): \(describing(error))".escapingControlCharacters + "\n")
    }

    /// The text of `error`: a limit's hint names plistconv's option (`ReadLimits.hint(for:)`).
    static func describing(_ error: some CustomStringConvertible) -> String {
        guard let error = error as? PlistError, let hint = ReadLimits.hint(for: error.code) else {
            return error.description
        }
        return error.description(limitHint: hint)
    }

    /// Writes `text` to standard error at once (one system call unless the system takes only
    /// part of it, so lines from threads do not mix).
    static func writeError(_ text: String) { try? FileIO.write(Array(text.utf8), to: .standardError) }

    /// Writes `text` to standard output.
    static func writeOutput(_ text: String) throws(PlistError) {
        try PlistFile.write(Array(text.utf8), toFileDescriptor: 1)
    }

    /// Whether something (a file, a folder, a link) is at `path`.
    static func exists(_ path: String) -> Bool { FileIO.exists(path) }

    /// Whether standard error is a terminal (progress is shown only there).
    static var errorIsTerminal: Bool { FileIO.isTerminal(.standardError) }
}

extension Terminal {
    /// `path` with its last extension replaced by `ext` (or `ext` added when it has none).
    static func replacingExtension(of path: String, with ext: String) -> String {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[nameStart...]
        let stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 } ?? path.endIndex
        return String(path[..<stem]) + "." + ext
    }
}

extension Terminal {
    /// The keyed archive `plist` with its objects resolved (`KeyedArchive.resolve`); if it is not
    /// a valid keyed archive, reports why against `file` and exits with status 1.
    static func resolvingArchive(_ plist: Plist, file: String) throws -> Plist {
        do {
            return try KeyedArchive.resolve(plist)
        } catch {
            report(error, file: displayName(file, isOutput: false))
            throw ExitCode.failure
        }
    }
}
