import PlistCore
package import SystemPackage

/// The one way out: where every writer of a named output (PlistKit's `write(to:)` functions,
/// the encoder, the streaming converters, every `plistconv` command) puts its bytes.
extension FileIO {
    /// An output opened for writing.
    package struct Output {
        /// Where to write.
        package let fd: FileDescriptor
        /// Whether bytes written can be read back (`readBack`): true for the temporary file of
        /// an atomic write, false for a device, a FIFO or a descriptor written in place.
        package let canReadBack: Bool
    }

    /// Writes the output named `path` with `produce`, by what is there:
    /// - a regular file, or nothing: replaced atomically (`writeAtomically`), so that a failed
    ///   write leaves the old file as it was;
    /// - a character device or a FIFO, or a link to one: opened and written in place, never
    ///   truncated, replaced or renamed over (`/dev/null` stays a device; a FIFO's reader gets
    ///   the bytes). A FIFO that no process reads is refused at once rather than waited on;
    /// - a descriptor's name (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`):
    ///   that open descriptor, written where it stands, as a shell's `>` or `>>` opened it;
    /// - a folder, a block device or a socket: refused, with one line that says which.
    /// - Throws: `PlistError` from `produce`, or `.io`.
    package static func writeOutput(
        to path: String, _ produce: (Output) throws(PlistError) -> Void
    ) throws(PlistError) {
        let target = try resolvingLink(path, stoppingAt: { descriptor(named: $0) != nil })
        if let descriptor = descriptor(named: target) {
            return try produce(Output(fd: descriptor, canReadBack: false))
        }
        guard let info = try? status(atPath: target), info.kind != .regular else {
            return try writeAtomically(to: target, followsLink: false) { fd throws(PlistError) in
                try produce(Output(fd: fd, canReadBack: true))
            }
        }
        let fd = try openInPlace(target, info.kind)
        var failure: PlistError?
        do throws(PlistError) { try produce(Output(fd: fd, canReadBack: false)) } catch { failure = error }
        do throws(Errno) { try close(fd) } catch { failure = failure ?? PlistError(error) }
        if let failure { throw failure }
    }

    /// Writes `bytes` to the output named `path`, as `writeOutput(to:_:)` does.
    package static func writeOutput(_ bytes: [UInt8], to path: String) throws(PlistError) {
        try writeOutput(to: path) { output throws(PlistError) in try writeAll(bytes, to: output.fd) }
    }

    /// Opens the device or FIFO at `path` (of `kind`) for writing in place.
    private static func openInPlace(_ path: String, _ kind: FileStatus.Kind) throws(PlistError) -> FileDescriptor {
        switch kind {
        case .characterDevice, .fifo:
            // Non-blocking, so that a FIFO without a reader fails (ENXIO) instead of waiting for one.
            let fd: FileDescriptor
            do throws(Errno) {
                fd = try open(path, .writeOnly, options: .nonBlocking)
            } catch  where kind == .fifo && error == .noSuchAddressOrDevice {
                throw PlistError(.io(reason: "a FIFO that no process is reading"), at: 0)
            } catch {
                throw PlistError(error)
            }
            // Writes wait for the reader from here on, as they do on a pipe.
            do throws(Errno) { try setBlocking(fd, true) } catch {
                try? close(fd)
                throw PlistError(error)
            }
            return fd
        case .folder: throw PlistError(Errno.isDirectory)
        case .blockDevice: throw refused("a block device")
        default: throw refused("a socket")
        }
    }

    private static func refused(_ what: String) -> PlistError {
        PlistError(.io(reason: what + " (outputs are files, FIFOs and character devices)"), at: 0)
    }

    /// The open descriptor that `path` names (`/dev/stdout` is 1, `/dev/fd/3` is 3), or nil.
    private static func descriptor(named path: String) -> FileDescriptor? {
        switch path {
        case "/dev/stdout": return .standardOutput
        case "/dev/stderr": return .standardError
        default: break
        }
        for folder in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(folder) {
            if let number = Int32(path.dropFirst(folder.count)) { return FileDescriptor(rawValue: number) }
        }
        return nil
    }
}
