import PlistKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole files as bytes, for the commands that need a file's bytes as well as its value.
enum FileBytes {
    /// The bytes of the file at `path`, or of standard input for `-`.
    /// - Throws: `PlistError` with `.io` and the system's reason.
    static func contents(of path: String) throws(PlistError) -> [UInt8] {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw systemError() }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw systemError()
            }
            bytes += chunk[..<count]
        }
    }

    private static func systemError() -> PlistError {
        PlistError(.io(reason: String(cString: strerror(errno))), at: 0)
    }
}

/// `read(2)`, which the name of `FileBytes.contents` would otherwise not hide.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
