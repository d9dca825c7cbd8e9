import ArgumentParser
import PlistKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and standard streams as the commands see them (`-` is standard input or output), and
/// the one-line error report.
enum Terminal {
    static func readPlist(_ path: String) throws(PlistError) -> Plist {
        if path == "-" { return try Plist(fileDescriptor: 0) }
        return try Plist(contentsOf: path)
    }

    static func writePlist(_ plist: Plist, format: PlistFormat, to path: String) throws(PlistError) {
        if path == "-" {
            try plist.write(toFileDescriptor: 1, format: format)
        } else {
            try plist.write(to: path, format: format)
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
    static func report(_ error: PlistError, file name: String) {
        var line = Array("plistconv: \(name): \(error)\n".utf8)
        _ = unsafe line.withUnsafeMutableBytes { unsafe write(2, $0.baseAddress, $0.count) }
    }
}
