import PlistCore
import SystemPackage

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// An input opened to read a property list from, checked by its type before anything is read:
/// a regular file, or a stream (standard input, a pipe, a FIFO, a socket, a terminal). Its
/// first bytes are read at once and kept, and the format is judged from them alone
/// (`PlistFormat.detect` looks at no more), so every way of reading the input (whole, mapped,
/// in chunks) starts from the same bytes and the same format, and a stream loses nothing.
///
/// Opening never waits: a path is opened non-blocking, so a FIFO that no process writes to is
/// an empty input at once, not a wait without end (decision: docs/SECURITY.md, "Inputs").
/// Block devices and folders are refused, and so is a character device (`/dev/zero` would be
/// read without end) unless it is a terminal, read like a pipe until its end of file, or ends
/// within the first bytes (`/dev/null`). Reading into memory stops at a limit that the read
/// options give (`limit(for:)`), before allocating for a regular file.
package final class PlistInput {
    /// What the input is.
    package enum Kind: Equatable {
        /// A regular file of `size` bytes (by `fstat`, when it was opened).
        case regularFile(size: Int)
        /// Standard input, a pipe, a FIFO, a socket or a terminal: read once, in order.
        case stream
    }

    /// The path it was opened from, or its name (`-` for standard input).
    package let path: String
    package let kind: Kind
    /// Up to `PlistFormat.detectionLength` bytes from the start; fewer when the input is shorter.
    package let head: [UInt8]
    private let fd: FileDescriptor
    private let ownsDescriptor: Bool
    /// Whether the input ended within `head`.
    private let endedInHead: Bool
    /// `format()`'s verdict on `head`.
    private let judgedFormat: Result<PlistFormat, PlistError>

    /// Opens the file at `path` and reads its first bytes.
    /// - Throws: `PlistError` with `.io` when it cannot be opened or read, or is a folder or a
    ///   device other than a terminal.
    package init(path: String) throws(PlistError) {
        self.path = path
        // Non-blocking: opening a FIFO for reading otherwise waits for a writer, maybe forever.
        do throws(Errno) {
            fd = try FileIO.open(path, .readOnly, options: .nonBlocking)
        } catch {
            throw PlistError(error)
        }
        ownsDescriptor = true
        do throws(PlistError) {
            let (kind, isDevice, isFIFO) = try Self.kind(of: fd)
            self.kind = kind
            if kind == .stream, !isDevice {
                // A writer may be opening the FIFO now: its open waits for a reader, and ours
                // wakes it. Until it is open, a read would find no writer and end the input.
                if isFIFO { FileIO.waitForInput(fd, milliseconds: Self.writerGrace) }
                // Reads wait for data from here on, as they do on standard input; a FIFO
                // without a writer reads as empty. (A device stays non-blocking: one that has
                // nothing to read at once is refused.)
                do throws(Errno) { try FileIO.setBlocking(fd, true) } catch { throw PlistError(error) }
            }
            (head, endedInHead) = try Self.readHead(fd, isDevice: isDevice)
            judgedFormat = Self.judge(head)
        } catch {
            try? FileIO.close(fd)
            throw error
        }
    }

    /// How long a FIFO opened by name is given for a writer to come (one that was waiting for a
    /// reader comes within a few milliseconds) or for data: a FIFO that none writes to in that
    /// time is an empty input.
    static let writerGrace: Int32 = 1_000

    /// Reads from the open descriptor `fd` (standard input is 0), from where it stands, which
    /// stays open; `name` is the name to give it (`-` for standard input). A regular file not
    /// read from its start is read as a stream.
    /// - Throws: as `init(path:)`.
    package init(fileDescriptor fd: Int32, name: String) throws(PlistError) {
        path = name
        self.fd = FileDescriptor(rawValue: fd)
        ownsDescriptor = false
        let (kind, isDevice, _) = try Self.kind(of: self.fd)
        self.kind = kind != .stream && (try? FileIO.offset(of: self.fd)) != 0 ? .stream : kind
        (head, endedInHead) = try Self.readHead(self.fd, isDevice: isDevice)
        judgedFormat = Self.judge(head)
    }

    /// Opens `path`, or standard input for `-` (plistconv's spelling).
    package static func opening(_ path: String) throws(PlistError) -> PlistInput {
        path == "-" ? try PlistInput(fileDescriptor: 0, name: path) : try PlistInput(path: path)
    }

    deinit {
        if ownsDescriptor { try? FileIO.close(fd) }
    }

    /// What the descriptor `fd` is, whether it is a character device other than a terminal,
    /// and whether it is a FIFO; folders and block devices are refused.
    private static func kind(of fd: FileDescriptor) throws(PlistError) -> (Kind, isDevice: Bool, isFIFO: Bool) {
        let info: FileStatus
        do throws(Errno) { info = try FileIO.status(of: fd) } catch { throw PlistError(error) }
        switch info.kind {
        case .regular: return (.regularFile(size: info.size), false, false)
        case .folder: throw PlistError(Errno.isDirectory)
        case .characterDevice: return (.stream, !FileIO.isTerminal(fd), false)
        case .blockDevice:
            throw PlistError(.io(reason: "a block device (only files, pipes and terminals are read)"), at: 0)
        default: return (.stream, false, info.kind == .fifo)
        }
    }

    static let deviceRefused = PlistError(
        .io(reason: "a character device (only files, pipes and terminals are read)"), at: 0)

    /// The first bytes of `fd`, up to `PlistFormat.detectionLength`, and whether it ended there.
    /// A device (`isDevice`) must end there, at once.
    private static func readHead(_ fd: FileDescriptor, isDevice: Bool) throws(PlistError) -> ([UInt8], Bool) {
        guard isDevice else { return try FileIO.fill(capacity: PlistFormat.detectionLength, from: fd) }
        guard let (head, ended) = try? FileIO.fill(capacity: PlistFormat.detectionLength, from: fd), ended else {
            throw deviceRefused
        }
        return (head, ended)
    }

    /// The format its first bytes say (`PlistFormat.detect`), judged once, when it was opened:
    /// every reader of the input starts from the same verdict.
    /// - Throws: `.emptyInput` or `.unknownFormat`.
    package func format() throws(PlistError) -> PlistFormat { try judgedFormat.get() }

    /// The format of `head` (`Plist.format(of:)`), or why it has none.
    private static func judge(_ head: [UInt8]) -> Result<PlistFormat, PlistError> {
        Result { () throws(PlistError) in try Plist.format(of: head.span) }
    }

    /// The most bytes read into memory under `options`: the content they allow, and 64 bytes
    /// for each value they allow (its markup, references, white space), which any input whose
    /// value stays within them needs, except one padded with white space, comments or objects
    /// that nothing refers to. 2 GiB with the default options.
    package static func limit(for options: PlistReadOptions) -> Int {
        let (markup, overflow) = max(options.maxObjects, 0).multipliedReportingOverflow(by: 64)
        let (total, overflow2) = max(options.maxContentBytes, 0).addingReportingOverflow(markup)
        return overflow || overflow2 ? .max : total
    }

    /// Everything in the input, its first bytes included, read into memory: a regular file into
    /// one buffer of its size, checked against `limit` before it is allocated.
    /// - Throws: `.inputTooLarge` past `limit`, `.io` when reading fails.
    package func contents(limit: Int) throws(PlistError) -> Data {
        if endedInHead {
            guard head.count <= limit else { throw PlistError(.inputTooLarge(limit: limit), at: 0) }
            return Data(head)
        }
        switch kind {
        case .regularFile(let size):
            guard size <= limit else { throw PlistError(.inputTooLarge(limit: limit), at: 0) }
            return try FileIO.contents(ofRegularFile: fd, size: size, limit: limit, after: head)
        case .stream:
            return try FileIO.contents(ofDescriptor: fd, limit: limit, after: head)
        }
    }

    /// The input's bytes for reading parts of them: a regular file memory-mapped whatever its
    /// size (the system reads a page when it is first touched, and may drop it again), a stream
    /// read into memory within `limit`. Returns whether they are mapped
    /// (`FileIO.releaser()` drops their pages).
    /// - Throws: as `contents(limit:)`, or `.io` when the file cannot be mapped.
    package func mapped(limit: Int) throws(PlistError) -> (bytes: Data, isMapped: Bool) {
        guard case .regularFile(let size) = kind, size > 0, !endedInHead else {
            return (try contents(limit: limit), false)
        }
        return (try FileIO.mapped(fd, size: size), true)
    }

    /// Calls `body` with a function that reads the input in chunks of `chunkSize` bytes (the
    /// first bytes first), an empty chunk at its end; a regular file ends at the size it had
    /// when it was opened.
    package func readingChunks(
        chunkSize: Int = 1 << 20, _ body: (_ read: () throws(PlistError) -> [UInt8]) throws(PlistError) -> Void
    ) throws(PlistError) {
        var pending = head
        var ended = endedInHead
        var left = Int.max
        if case .regularFile(let size) = kind { left = size - head.count }
        try body { () throws(PlistError) -> [UInt8] in
            var chunk = pending
            pending = []
            if !ended, left <= 0 { ended = true }
            if !ended {
                let wanted = min(max(chunkSize - chunk.count, 1), left)
                defer { left -= wanted }
                let more = try FileIO.readUpTo(wanted, from: fd)
                if more.count < wanted { ended = true }
                chunk += more
            }
            return chunk
        }
    }

    /// Calls `scan` with every byte of a regular file, to the size it had when it was opened, in
    /// chunks, read with `pread` from its start (so the reads that follow are not moved); for a
    /// stream, does nothing.
    /// - Throws: `.io` when reading fails.
    package func scanning(_ scan: (_ chunk: Span<UInt8>) -> Void) throws(PlistError) {
        guard case .regularFile(let size) = kind else { return }
        var offset = 0
        while offset < size {
            let chunk = try FileIO.readBack(fd, offset: offset, count: min(1 << 20, size - offset))
            if chunk.isEmpty { return }
            scan(chunk.span)
            offset += chunk.count
        }
    }
}
