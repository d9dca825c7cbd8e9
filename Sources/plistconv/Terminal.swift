import ArgumentParser
import PlistKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A property list read from a file or standard input, with the format it was in.
struct Document {
    var value: Plist
    var format: PlistFormat
}

/// Files and standard streams as the commands see them (`-` is standard input or output), and
/// the one-line error report.
enum Terminal {
    static func read(_ path: String, options: PlistReadOptions = .init()) throws(PlistError) -> Document {
        let (value, format) =
            path == "-"
            ? try Plist.read(fileDescriptor: 0, options: options) : try Plist.read(contentsOf: path, options: options)
        return Document(value: value, format: format)
    }

    /// The size of the regular file at `path`, or nil for anything else.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Up to `count` bytes from the start of the file at `path` (none when it cannot be read).
    static func firstBytes(of path: String, count: Int) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { readFile(fd, $0.baseAddress, count) }
        return Array(bytes.prefix(max(0, got)))
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

    /// Prints `plistconv: NAME: message` on standard error.
    static func report(_ error: some CustomStringConvertible, file name: String) {
        writeError("plistconv: \(name): \(error)\n")
    }

    /// Writes `text` to standard error in one system call (so lines from threads do not mix).
    static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        _ = unsafe bytes.withUnsafeMutableBytes { unsafe write(2, $0.baseAddress, $0.count) }
    }

    /// Writes `text` to standard output.
    static func writeOutput(_ text: String) throws(PlistError) {
        try PlistFile.write(Array(text.utf8), toFileDescriptor: 1)
    }

    /// Whether something (a file, a folder, a link) is at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether standard error is a terminal (progress is shown only there).
    static var errorIsTerminal: Bool { isatty(2) == 1 }
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

/// `read(2)`, which `Terminal.read` hides inside `Terminal`.
private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
